/**
 * The augmentation tests' data directory: a 'notes' generation dataset on real SQLite with 60
 * private records of 30 subjects (each carrying MARKER, which only the private split holds),
 * six public records, and a budget of ε 1 at δ 1e-5.
 */
import { callMethod } from '../../../electron/services/api';
import { datasetWith, tempServices, type TempServices } from '../../helpers/services';

export const MARKER = 'zqxpoisonmarker';
export const topics = ['cough and fever', 'sprained ankle', 'migraine', 'rash on the arm', 'back pain', 'sore throat'];

export async function notesDataDir(prefix: string): Promise<TempServices> {
  const services = tempServices(prefix);
  const privateRecords = Array.from({ length: 60 }, (_, i) => ({
    text: `Patient ${MARKER} ${i} came in with ${topics[i % topics.length]} for ${1 + (i % 5)} days.`,
    output: `${topics[i % topics.length]} ${MARKER}`,
    split: 'private' as const,
    subject: `s${i % 30}`,
  }));
  const publicRecords = topics.map((t, i) => ({ text: `A visitor came in with ${t} for ${i + 2} days.`, output: `${t}, ${i + 2} days`, split: 'public' as const }));
  const dataset = { name: 'notes', task: 'generation', privacyUnit: 'subject', subjectCap: 3, description: 'Summarise each clinic note in one sentence.' } as const;
  await datasetWith(services.ctx, dataset, [...privateRecords, ...publicRecords]);
  await callMethod(services.ctx, 'budget.set', { dataset: 'notes', epsilon: 1, delta: 1e-5 });
  return services;
}
