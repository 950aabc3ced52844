// A time as the person reads it: the clock in the browser's own time zone (not UTC, which a
// person in New York would have to convert), with the full date, time and zone on hover.

const valid = (d: Date): boolean => !Number.isNaN(d.getTime());

/** "15:59:07" in the browser's zone */
export const clockText = (at: string): string => {
  const d = new Date(at);
  return valid(d) ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }) : at;
};

/** "Nov 27, 2026, 3:59:07 PM EST" in the browser's locale and zone */
export const fullTimeText = (at: string): string => {
  const d = new Date(at);
  return valid(d) ? d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'long' }) : at;
};

export const LocalTime = ({ at, class: cls }: { readonly at: string; readonly class?: string }) =>
  <time dateTime={at} title={fullTimeText(at)} class={cls}>{clockText(at)}</time>;

/** "Nov 27, 15:59:07" in the browser's zone: a time of another day still says which */
export const dayTimeText = (at: string): string => {
  const d = new Date(at);
  return valid(d) ? d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }) : at;
};
