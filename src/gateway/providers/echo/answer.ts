/** An echo model's whole answer, its cost told as an upstream answer's is (usage.cost where the format has a place, X-Gateway-Cost). */
import { answerWithCost } from '../../relay/formats/cost.ts';
import { writeJson } from '../../relay/respond.ts';
import type { RelayRequest, RelayUsage } from '../../relay/types.ts';

export function writeEchoAnswer(request: RelayRequest, usage: RelayUsage, text: string): void {
  const { body, headers } = answerWithCost(request, usage, text, text);
  writeJson(request, 200, body, headers);
}
