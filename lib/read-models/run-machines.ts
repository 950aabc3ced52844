import { decodeStored, isUnreadable } from '../../journal/decode.js';
import { DISPATCH_EVENT_CODECS, type DispatchEvent } from '../../journal/dispatch-events.js';
import type { Journal, Stored } from '../../journal/journal.js';
import { evolveRunMachines, NO_RUN_MACHINES, type RunMachines } from '../../projections/run-machines.js';

// Where each run's steps ran, kept current from the 'dispatch' journal (its own fold of it, beside
// the fence's): read by the run's view (get_run, the run page) and the Machines page. Folded at
// open, then from each append; an event that does not decode is left out, as the fence does.

export class RunMachinesView {
  private state: RunMachines = NO_RUN_MACHINES;

  constructor(journal: Journal) {
    this.fold(journal.read('dispatch'));
    journal.subscribe((stream, events) => { if (stream === 'dispatch') this.fold(events); });
  }

  private fold(events: readonly Stored[]): void {
    for (const stored of events) {
      const e = decodeStored<DispatchEvent>(DISPATCH_EVENT_CODECS, stored);
      if (!isUnreadable(e)) this.state = evolveRunMachines(this.state, e);
    }
  }

  get current(): RunMachines {
    return this.state;
  }
}
