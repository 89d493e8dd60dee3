/**
 * Migration 8 (issue 20): a dataset setting "size is public" (off by default: pool sizes are
 * then released only as charged DP counts, core/icl/poolSizes.ts), and each synthesis run's
 * aggregate of teacher evaluations replaced by the uniform vector (core/icl/teacherEvaluation.ts),
 * stored once the job has ended.
 */
import type { Migration } from '../migrate';

export const privateSizesMigration: Migration = {
  id: 8,
  name: 'private sizes and teacher substitutions',
  sql: `
ALTER TABLE datasets ADD COLUMN size_public INTEGER NOT NULL DEFAULT 0 CHECK (size_public IN (0, 1));
ALTER TABLE synthesis_runs ADD COLUMN teacher_evaluations INTEGER;
ALTER TABLE synthesis_runs ADD COLUMN teacher_substitutions INTEGER;
`,
};
