/** `certificate.verify`: a DP answers document goes to the answering service, an augmentation's to augmentation, any other to synthesis (DP prompts). */
import { isAugmentationText } from '../../../core/export/augmentationFormat';
import { isDpAnswersText } from '../../../core/export/dpAnswersFormat';
import { getAugmentationService } from '../augmentation/augmentationHandlers';
import type { HandlerMap } from '../handler';
import { getSynthesisService } from '../synthesis/synthesisHandlers';
import { getAnsweringService } from './answeringHandlers';

export const certificateHandlers: HandlerMap<'certificate.verify'> = {
  'certificate.verify': async ({ document }, ctx) =>
    isDpAnswersText(document)
      ? (await getAnsweringService(ctx)).verify(document)
      : isAugmentationText(document)
        ? (await getAugmentationService(ctx)).verify(document)
        : (await getSynthesisService(ctx)).verify(document),
};
