import { openSqliteStorage } from './database.ts';
import { libraryListSuite } from './library-list-suite.ts';

libraryListSuite('SQLite', () => openSqliteStorage(':memory:'));
