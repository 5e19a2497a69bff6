import { storageSuite } from '../../testing/storage-suite.ts';
import { openSqliteStorage } from './database.ts';

storageSuite('SQLite', () => openSqliteStorage(':memory:'));
