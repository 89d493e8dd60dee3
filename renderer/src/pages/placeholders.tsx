/**
 * Pages whose features have not landed yet: each says plainly what it will hold.
 * A page moves to its own file when its feature is built.
 */
import { PlannedFeature } from '../components/PlannedFeature';

export const AskPage = () => (
  <PlannedFeature
    title="Private answering"
    summary="Questions will be answered by an ensemble over private examples with DP aggregation."
    items={['private voting and embedding/keyword-space aggregation', 'public-data-assisted aggregation', 'each answer charged to the budget']}
  />
);
