import { AppError } from '../../../app-error.js';

export interface AdmissionLimits {
  subscribersMax: number;
  subscribersPerClient: number;
}

/** Who may open one more live stream: at most so many per client and so many in the process. */
export interface Admission {
  /** Counts the client in, or throws TOO_MANY_STREAMS (429) or SUBSCRIBERS_FULL (503). */
  admit(clientKey: string): void;
  /** Counts one stream of the client out. */
  leave(clientKey: string): void;
  /** Refuses everyone from now on (the service is shutting down). */
  close(): void;
  readonly total: number;
}

/** `what` names the streams in the refusals ("live chat streams"). */
export function createAdmission(limits: AdmissionLimits, what: string): Admission {
  const perClient = new Map<string, number>();
  let total = 0;
  let closed = false;
  return {
    admit(clientKey) {
      if (closed)
        throw new AppError('SUBSCRIBERS_FULL', 'The service is shutting down; reconnect shortly.');
      if ((perClient.get(clientKey) ?? 0) >= limits.subscribersPerClient)
        throw new AppError(
          'TOO_MANY_STREAMS',
          `A client may hold ${limits.subscribersPerClient} ${what} at once; close one first.`,
          { limit: limits.subscribersPerClient },
        );
      if (total >= limits.subscribersMax)
        throw new AppError(
          'SUBSCRIBERS_FULL',
          `Every ${what.replace(/s$/, '')} of this service is taken; try again shortly.`,
        );
      total += 1;
      perClient.set(clientKey, (perClient.get(clientKey) ?? 0) + 1);
    },
    leave(clientKey) {
      total -= 1;
      const held = (perClient.get(clientKey) ?? 1) - 1;
      if (held > 0) perClient.set(clientKey, held);
      else perClient.delete(clientKey);
    },
    close() {
      closed = true;
    },
    get total() {
      return total;
    },
  };
}
