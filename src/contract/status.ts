/** GET /api/status (contract 4.1). */
import { z } from 'zod';

export const STATUS_PATH = '/api/status';

export const StatusResponse = z.looseObject({
  success: z.boolean().optional(),
  data: z.unknown().optional(),
});
export type StatusResponse = z.infer<typeof StatusResponse>;
