/**
 * Which model a @gateway turn asks: the one picked in the chat's model picker when it is one of the gateway's
 * (vendor model-gateway), else `modelGateway.model`. A user who picked gpt-4o under the chat input and asked
 * @gateway expects gpt-4o; another vendor's pick (Copilot's) cannot be asked through the gateway. Pure.
 */
import { LM_VENDOR } from '../ids.ts';

/** The fields of VS Code's LanguageModelChat read here (request.model). */
export interface PickedModel {
  readonly vendor: string;
  readonly id: string;
  readonly family: string;
}

export function chatModelFor(picked: PickedModel | undefined, configured: string): string {
  if (picked?.vendor !== LM_VENDOR) return configured;
  // Our provider gives each model the gateway's name as both id and family (lm/modelInfo.ts).
  const name = (picked.family || picked.id).trim();
  return name === '' ? configured : name;
}
