/** What serverStatus reports: since when the server runs, its connections and operations. */
export class Activity {
  readonly startedAt = Date.now();
  connections = { current: 0, totalCreated: 0 };
  opcounters = { insert: 0, query: 0, update: 0, delete: 0, getmore: 0, command: 0 };

  /** Counts one command the way mongod's opcounters do. */
  count(command: string, statements: number): void {
    const counters = this.opcounters;
    if (command === 'insert') counters.insert += statements;
    else if (command === 'update') counters.update += statements;
    else if (command === 'delete') counters.delete += statements;
    else if (command === 'find') counters.query++;
    else if (command === 'getMore') counters.getmore++;
    else counters.command++;
  }
}
