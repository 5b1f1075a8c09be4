import { type Logger, pino } from 'pino';

export type { Logger };

export function createLogger(level: string, destination: number = 1): Logger {
  return pino(
    { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ dest: destination, sync: false }),
  );
}
