import type { FastifyInstance } from 'fastify';
import { resolveSecret, type Config } from '../../config';
import { createSecretBox } from '../../security/secret-box';
import { registerAiRoutes } from './ai.routes';
import { ProvidersService } from './providers.service';

export {
  describeProviderError,
  openAiClient,
  scrubKey,
  type ChatCompletionMessageParam,
  type ProviderConnection,
} from './openai-client';
export { streamChatCompletion } from './chat-stream';
export { ProvidersService, type ResolvedModel } from './providers.service';

/** AI providers and their models (DESIGN 8), managed by admins with `aigc/model`. */
export async function registerAiFeature(
  app: FastifyInstance,
  deps: { config: Config; onChange: () => Promise<void> },
): Promise<ProvidersService> {
  const { db, now } = app.services;
  const secret = resolveSecret(deps.config).secret;
  const box = createSecretBox(secret, 'ai-provider-api-key');
  const providers = new ProvidersService(db, box, now, app.log, deps.onChange);
  const resealed = await providers.resealLegacyKeys(secret);
  if (resealed > 0) app.log.info({ resealed }, 'provider keys sealed again in the current format');
  registerAiRoutes(app, providers);
  return providers;
}
