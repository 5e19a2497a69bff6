import { collectionsSuite } from './collections-suite.ts';
import { openSqliteStorage } from './database.ts';

collectionsSuite('SQLite', () => openSqliteStorage(':memory:'));
