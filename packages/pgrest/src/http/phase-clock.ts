/** The phases PostgREST's `Server-Timing` header reports after `jwt`, in its order. */
const PHASES = ['parse', 'plan', 'transaction', 'response'] as const;
export type Phase = (typeof PHASES)[number];

/**
 * Time spent per phase of one request, for `Server-Timing`: each `lap` charges the time since
 * the previous lap (or the start) to a phase, so the phases add up to the whole request.
 */
export class PhaseClock {
  private last = performance.now();
  private readonly spent: Record<Phase, number> = { parse: 0, plan: 0, transaction: 0, response: 0 };

  lap(phase: Phase): void {
    const now = performance.now();
    this.spent[phase] += now - this.last;
    this.last = now;
  }

  /** `parse;dur=0.1, plan;dur=0.2, transaction;dur=1.3, response;dur=0.0`: milliseconds, one decimal, as PostgREST writes them. */
  header(): string {
    return PHASES.map((phase) => `${phase};dur=${this.spent[phase].toFixed(1)}`).join(', ');
  }
}
