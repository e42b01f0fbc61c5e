/** Mocha root hook (loaded by .mocharc.json): the shared test PostgreSQL server stops after the last test. */
import { stopPostgres } from './postgres.ts';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await stopPostgres();
  },
};
