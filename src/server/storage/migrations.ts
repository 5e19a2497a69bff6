import { sql, type Kysely, type Migration } from 'kysely';
import { columnTypes } from './dialect.ts';

/**
 * The one list of migrations for both dialects (applied in name order); each writes the types
 * that differ through `columnTypes`. Never edit one that has shipped: add the next.
 */
export const migrations: Record<string, Migration> = {
  '001_library': {
    async up(db: Kysely<unknown>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('library')
        .addColumn('seq', t.serial, (c) =>
          t.autoIncrement ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('task_id', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('images_json', 'text', (c) => c.notNull())
        .addColumn('prompt', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('progress', 'integer', (c) => c.notNull())
        .addColumn('progress_stage', 'text')
        .addColumn('created', t.bigint, (c) => c.notNull())
        .addColumn('completed_at', t.bigint)
        .addColumn('created_ms', t.bigint, (c) => c.notNull())
        .addColumn('updated_ms', t.bigint, (c) => c.notNull())
        .addColumn('credits_consumed', 'integer')
        .addColumn('credits_remaining', 'integer')
        .addColumn('error_json', 'text')
        .addColumn('upstream_model_url', 'text')
        .addColumn('asset_sha256', 'text')
        .addColumn('archive_attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('archive_error', 'text')
        .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('library_owner_task', ['owner', 'task_id'])
        .execute();
      await db.schema.createIndex('library_task').on('library').column('task_id').execute();
      await db.schema
        .createTable('balances')
        .addColumn('seq', t.serial, (c) =>
          t.autoIncrement ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('balance', 'integer', (c) => c.notNull())
        .addColumn('learned_ms', t.bigint, (c) => c.notNull())
        .addColumn('task_id', 'text')
        .execute();
      await db.schema
        .createIndex('balances_owner')
        .on('balances')
        .columns(['owner', 'seq'])
        .execute();
      await db.schema
        .createTable('idempotency')
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('body_sha256', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('headers_json', 'text', (c) => c.notNull())
        .addColumn('body', t.bytes, (c) => c.notNull())
        .addColumn('created_ms', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_pk', ['owner', 'key'])
        .execute();
    },
  },
  '002_shared_state': {
    async up(db: Kysely<unknown>) {
      const t = columnTypes(db);
      // Idempotency records are recorded in flight before the create is forwarded (the old
      // table kept only answers; its rows live ten minutes, so they are not carried over).
      await db.schema.dropTable('idempotency').execute();
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('body_sha256', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('holder', 'text')
        .addColumn('lease_until_ms', t.bigint, (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('headers_json', 'text')
        .addColumn('body', t.bytes)
        .addColumn('created_ms', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['owner', 'key'])
        .execute();
      await db.schema
        .createIndex('idempotency_keys_created')
        .on('idempotency_keys')
        .column('created_ms')
        .execute();
      await db.schema.alterTable('library').addColumn('archive_next_ms', t.bigint).execute();
      // Completed tasks whose archive failed before: due for a retry now.
      await db
        .updateTable('library' as never)
        .set({ archive_next_ms: 0 } as never)
        .where(
          sql<boolean>`status = 'completed' and asset_sha256 is null and upstream_model_url is not null`,
        )
        .execute();
      await db.schema
        .createIndex('library_archive_due')
        .on('library')
        .column('archive_next_ms')
        .execute();
      await db.schema
        .createTable('uploads')
        .addColumn('sha256', 'text', (c) => c.primaryKey())
        .addColumn('ext', 'text', (c) => c.notNull())
        .addColumn('bytes', t.bigint, (c) => c.notNull())
        .addColumn('created_ms', t.bigint, (c) => c.notNull())
        .addColumn('referenced', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('uploads_unreferenced')
        .on('uploads')
        .columns(['referenced', 'created_ms'])
        .execute();
      await db.schema
        .createTable('counters')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('window_start_ms', t.bigint, (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('counters_pk', ['name', 'window_start_ms'])
        .execute();
      await db.schema
        .createTable('leases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('until_ms', t.bigint, (c) => c.notNull())
        .execute();
    },
  },
  '003_upload_names': {
    // The file name an upload came with ("chair.png"): the library names a task's photos, and
    // downloads are named after them.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('uploads').addColumn('name', 'text').execute();
    },
  },
  '004_thumbnails': {
    // A picture of the model itself (WebP, content-addressed in the blob store), drawn by the
    // browser that first shows the archived model and kept: the gallery shows it.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('library').addColumn('thumbnail_sha256', 'text').execute();
    },
  },
  '005_shares': {
    // Public links to a model (share/): one per owner and task at a time; revoking deletes the
    // row, so the token is gone for good. The token is a random 144-bit string, never derived
    // from the owner or the key; it is kept as it is so the owner can copy the link again.
    async up(db: Kysely<unknown>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('shares')
        .addColumn('token', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('task_id', 'text', (c) => c.notNull())
        .addColumn('created_ms', t.bigint, (c) => c.notNull())
        .addUniqueConstraint('shares_owner_task', ['owner', 'task_id'])
        .execute();
    },
  },
  '006_favourites': {
    // A task its owner starred (0/1): the gallery filters by it. The owner's rows by seq serve
    // every list the gallery asks for (newest, oldest, and the filters), so that reading one
    // owner's page never scans other owners' rows.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('library')
        .addColumn('favourite', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('library_owner_seq')
        .on('library')
        .columns(['owner', 'seq'])
        .execute();
    },
  },
  '007_optimise_jobs': {
    // Optimise jobs (server/optimise/): written by the replica that runs one, read by any, so a
    // poll that reaches another replica (or the same one after a restart) finds the job. The
    // job itself is JSON (the contract's OptimiseJob); the columns beside it are what is looked
    // up: its owner, the same-request key, whether it is unfinished, and the runner's heartbeat.
    async up(db: Kysely<unknown>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('optimise_jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('dedupe_key', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('created_ms', t.bigint, (c) => c.notNull())
        .addColumn('updated_ms', t.bigint, (c) => c.notNull())
        .addColumn('finished_ms', t.bigint)
        .addColumn('job_json', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('optimise_jobs_owner_status')
        .on('optimise_jobs')
        .columns(['owner', 'status'])
        .execute();
      await db.schema
        .createIndex('optimise_jobs_dedupe_key')
        .on('optimise_jobs')
        .column('dedupe_key')
        .execute();
    },
  },
  '008_ledger_and_intents': {
    // Truth under faults (decisions 0075, 0076). The library keeps when each create was sent and
    // answered, when its task was last seen pending and when it was first seen ended: the windows
    // in which its charge and its refund happened, from which the balance is derived. A create is
    // recorded as an intent before it is forwarded (nothing is charged that Kiln cannot record).
    async up(db: Kysely<unknown>) {
      const t = columnTypes(db);
      for (const column of ['sent_ms', 'answered_ms', 'last_pending_ms', 'ended_ms'])
        await db.schema.alterTable('library').addColumn(column, t.bigint).execute();
      // A refusal's balance was true at a moment between the create's sending and its answer.
      await db.schema.alterTable('balances').addColumn('sent_ms', t.bigint).execute();
      await db.schema
        .createTable('create_intents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('sent_ms', t.bigint, (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('create_intents_owner')
        .on('create_intents')
        .columns(['owner', 'sent_ms'])
        .execute();
    },
  },
  '009_model_names': {
    // A model's own name, given by its owner (decision 0085): null until named. The gallery's
    // search looks in it as in the prompt; the owner's rows are already narrowed by
    // library_owner_seq, so no index of its own.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('library').addColumn('name', 'text').execute();
    },
  },
  '010_collections': {
    // Collections (decision 0087): an owner's named groups of library models. A name is unique
    // per owner regardless of case (name_key, lower-cased); a model may sit in several, and a
    // member is its task id (the collection's owner's library row). A collection's public link
    // is a table of its own (one per collection; revoking deletes the row, so the token is gone).
    async up(db: Kysely<unknown>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('collections')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('created_ms', t.bigint, (c) => c.notNull())
        .addColumn('updated_ms', t.bigint, (c) => c.notNull())
        .addUniqueConstraint('collections_owner_name', ['owner', 'name_key'])
        .execute();
      await db.schema
        .createTable('collection_models')
        .addColumn('collection_id', 'text', (c) => c.notNull())
        .addColumn('task_id', 'text', (c) => c.notNull())
        .addColumn('added_ms', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('collection_models_pk', ['collection_id', 'task_id'])
        .execute();
      // Which of an owner's collections hold these tasks (every library page asks).
      await db.schema
        .createIndex('collection_models_task')
        .on('collection_models')
        .column('task_id')
        .execute();
      await db.schema
        .createTable('collection_shares')
        .addColumn('token', 'text', (c) => c.primaryKey())
        .addColumn('collection_id', 'text', (c) => c.notNull().unique())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('created_ms', t.bigint, (c) => c.notNull())
        .execute();
    },
  },
  '011_share_files': {
    // What a link serves besides the archived GLB (decisions 0089, 0090): the USDZ the owner's
    // browser made for AR Quick Look (content-addressed in the blob store), and the link preview
    // picture made once on the server, with the key of what it was made from (the model's
    // picture, its title, the layout's version) so that a rename makes a new one. Numbered 011:
    // 010 is taken by collections, made at the same time. Revoking deletes the row, and these
    // with it.
    async up(db: Kysely<unknown>) {
      for (const column of ['usdz_sha256', 'preview_key', 'preview_sha256'])
        await db.schema.alterTable('shares').addColumn(column, 'text').execute();
    },
  },
  '012_collection_previews': {
    // A shared collection's link preview picture (decisions 0087, 0089), made once like a
    // model's: the key of what it was made from (the collection's name, how many models its
    // page shows, its first three pictures, the layout's version) and the JPEG's hash. Revoking
    // deletes the row, and these with it.
    async up(db: Kysely<unknown>) {
      for (const column of ['preview_key', 'preview_sha256'])
        await db.schema.alterTable('collection_shares').addColumn(column, 'text').execute();
    },
  },
  '013_recovered_creates': {
    // A create recorded through a recovery path (decision 0091): a retry after a replica died
    // between the upstream's answer and the library's write, answered by the upstream's replay.
    // Its charge window starts at the first attempt's send; its balance figure is no anchor.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('library')
        .addColumn('recovered', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  '014_provider_refs': {
    // A vendor task whose reference moved on (Meshy's text-to-3d: the refine stage is a new
    // vendor task under the same Kiln task, decision 0110): the ref every replica polls next.
    async up(db: Kysely<unknown>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('provider_refs')
        .addColumn('task_id', 'text', (c) => c.primaryKey())
        .addColumn('ref', 'text', (c) => c.notNull())
        .addColumn('updated_ms', t.bigint, (c) => c.notNull())
        .execute();
    },
  },
  '015_provider_costs': {
    // What a vendor's task cost in the vendor's own unit (credits, or USD for fal; decisions 0116, 0117),
    // and, on a task that moved on to its next charged stage, what the stages before it cost.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('library').addColumn('cost_amount', 'double precision').execute();
      await db.schema.alterTable('library').addColumn('cost_unit', 'text').execute();
      await db.schema
        .alterTable('provider_refs')
        .addColumn('prior_cost', 'double precision', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
};
