// The library's list suite on PostgreSQL: a throwaway cluster per file (scale tests).
import { freshPostgresStorage } from '../../testing/postgres-storage.ts';
import { libraryListSuite } from './library-list-suite.ts';

libraryListSuite('PostgreSQL', freshPostgresStorage());
