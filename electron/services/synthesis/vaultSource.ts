/** The synthesis source over the vault: dataset description, private pools, non-private examples. */
import type { ServiceContext } from '../context';
import { getVaultService } from '../vault/vaultHandlers';
import type { SynthesisSource } from './synthesisSource';

export async function vaultSource(ctx: ServiceContext): Promise<SynthesisSource> {
  const vault = await getVaultService(ctx);
  return {
    dataset: async (name) => {
      const d = await vault.dataset(name);
      return { id: d.id, name: d.name, createdAt: d.createdAt, task: d.task, labels: d.labels, privacyUnit: d.privacyUnit };
    },
    pool: async (dataset, label) => vault.pool(await vault.dataset(dataset.id), label),
    examples: async (dataset, split, limit) => {
      const { rows } = await vault.records(dataset.id, { filter: { splits: [split] }, offset: 0, limit: Math.min(limit, 1000), order: 'id', descending: false });
      return rows.map((r) => ({ text: r.text, label: r.label, output: r.output }));
    },
  };
}
