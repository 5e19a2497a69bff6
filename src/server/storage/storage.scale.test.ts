// The same behaviour suite on PostgreSQL: a throwaway cluster per file (scale tests).
import { freshPostgresStorage } from '../../testing/postgres-storage.ts';
import { storageSuite } from '../../testing/storage-suite.ts';

storageSuite('PostgreSQL', freshPostgresStorage());
