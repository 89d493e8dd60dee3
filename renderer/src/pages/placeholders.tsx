/**
 * Pages whose features have not landed yet: each says plainly what it will hold.
 * A page moves to its own file when its feature is built.
 */
import { PlannedFeature } from '../components/PlannedFeature';

export const AuditPage = () => (
  <PlannedFeature
    title="Membership-inference audit"
    summary="Audits will measure what a prompt or a release actually leaks."
    items={['membership-inference attacks on planted canaries', 'ROC, AUC and TPR at low FPR', 'empirical ε lower bounds next to the accounted ε']}
  />
);
