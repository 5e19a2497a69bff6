// The collections suite on PostgreSQL: a throwaway cluster per file (scale tests).
import { freshPostgresStorage } from '../../testing/postgres-storage.ts';
import { collectionsSuite } from './collections-suite.ts';

collectionsSuite('PostgreSQL', freshPostgresStorage());
