/**
 * What synthesis needs from the vault: the dataset's public description, the size of
 * each private pool, a sampling-only view of each pool, and public/held-out examples for
 * the utility check. Implemented over the vault in vaultSource.ts; tests pass their own.
 */
import type { PrivatePool } from '../../../core/icl/privatePool';

export interface SynthesisDataset {
  id: number;
  name: string;
  createdAt: string;
  task: 'classification' | 'generation';
  /** The public label set (empty for generation tasks). */
  labels: string[];
  privacyUnit: 'record' | 'subject';
  /** The analyst declared the size public: pool sizes are used exactly (default: noisy, charged; core/icl/noisyPoolSizes.ts). */
  sizePublic?: boolean;
}

export interface LabelledExample {
  text: string;
  label: string | null;
  output: string | null;
}

export interface ExampleFilter {
  withOutput: boolean;
}

export interface SynthesisSource {
  dataset(name: string): Promise<SynthesisDataset>;
  /** The private pool of one public label (or the whole private split): a sampling view. */
  pool(dataset: SynthesisDataset, label: string | undefined): Promise<PrivatePool>;
  /**
   * A uniform sample of up to `limit` examples of a NON-private split, the same at every call;
   * with `withOutput`, of its records with a non-blank output only (answering's demonstrations).
   */
  examples(dataset: SynthesisDataset, split: 'public' | 'held-out', limit: number, filter?: ExampleFilter): Promise<LabelledExample[]>;
  /**
   * A key that changes whenever the dataset's public split may have changed (a record added,
   * deleted, moved in or out, relabelled or edited): what is built from the public split (the
   * domain learner) is cached under it. Optional: without it nothing is cached.
   */
  publicVersion?(dataset: SynthesisDataset): Promise<string>;
}
