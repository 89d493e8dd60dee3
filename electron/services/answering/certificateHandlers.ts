/** `certificate.verify`: a DP answers document goes to the answering service, any other to synthesis (DP prompts). */
import { isDpAnswersText } from '../../../core/export/dpAnswersFormat';
import type { HandlerMap } from '../handler';
import { getSynthesisService } from '../synthesis/synthesisHandlers';
import { getAnsweringService } from './answeringHandlers';

export const certificateHandlers: HandlerMap<'certificate.verify'> = {
  'certificate.verify': async ({ document }, ctx) =>
    isDpAnswersText(document) ? (await getAnsweringService(ctx)).verify(document) : (await getSynthesisService(ctx)).verify(document),
};
