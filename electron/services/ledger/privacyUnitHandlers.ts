/** Handler for budget.privacyUnits: the services' one N (privacyUnitCount), for the Budget page. */
import { appDatabase } from '../db/appDatabase';
import type { HandlerMap } from '../handler';
import { privacyUnitCount, resolveDataset } from './datasets';

export const privacyUnitHandlers: HandlerMap<'budget.privacyUnits'> = {
  'budget.privacyUnits': async ({ dataset }, ctx) => {
    const db = await appDatabase(ctx);
    const key = await resolveDataset(db, dataset);
    const unit = (await db.get<{ unit: 'record' | 'subject' }>('SELECT privacy_unit AS unit FROM datasets WHERE id = $id', { id: key.id }))!.unit;
    return { datasetId: key.id, dataset: key.name, unit, n: await privacyUnitCount(db, key.id) };
  },
};
