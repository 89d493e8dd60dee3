/**
 * Every schema migration of the app database, in order. Append only: never edit or
 * reorder an entry that has shipped (the checksum check refuses it); add a new one.
 */
import type { Migration } from '../migrate';
import { vaultMigration } from './001_vault';
import { ledgerMigration } from './002_ledger';
import { synthesisMigration } from './003_synthesis';
import { plansMigration } from './004_plans';
import { ftsSecureDeleteMigration } from './005_fts_secure_delete';
import { contentHashIndexMigration } from './006_content_hash_index';
import { jobsMigration } from './007_jobs_and_ledger_anchor';
import { privateSizesMigration } from './008_private_sizes';
import { answerRunsMigration } from './009_answer_runs';
import { auditRunsMigration } from './010_audit_runs';
import { augmentationRunsMigration } from './012_augmentation_runs';
import { publicSourceMigration } from './013_public_source';
import { dropContentHashIndexMigration } from './015_drop_content_hash_index';
import { publicVersionMigration } from './019_public_version';
import { privateUnitsIndexMigration } from './020_private_units_index';
import { recordOrderIndexesMigration } from './021_record_order_indexes';

export const migrations: Migration[] = [
  vaultMigration, ledgerMigration, synthesisMigration, plansMigration, ftsSecureDeleteMigration, contentHashIndexMigration,
  jobsMigration, privateSizesMigration, answerRunsMigration, auditRunsMigration,
  augmentationRunsMigration, publicSourceMigration, dropContentHashIndexMigration,
  publicVersionMigration,
  privateUnitsIndexMigration,
  recordOrderIndexesMigration,
];
