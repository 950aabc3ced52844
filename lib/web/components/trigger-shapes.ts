// Trigger rules as /api/triggers shows them (docs/triggers.md).

export type TriggerSource =
  | { readonly _tag: 'Schedule'; readonly cron: string; readonly timeZone: string }
  | { readonly _tag: 'CodeHost'; readonly repository: string; readonly label?: string; readonly command?: string }
  | { readonly _tag: 'Webhook' }
  | { readonly _tag: 'Files'; readonly folder: string; readonly glob: string; readonly debounceMs?: number };

export interface TriggerEvent {
  readonly id: string;
  readonly kind: string;
  readonly summary: string;
  readonly url?: string;
  readonly at: string;
  readonly outcome?: { readonly _tag: string; readonly runId?: string; readonly standing?: string; readonly reason?: string };
}

export interface TriggerRule {
  readonly id: string;
  readonly name: string;
  readonly project: string;
  readonly workflow?: string;
  readonly enabled: boolean;
  readonly source: TriggerSource;
  readonly goal: string;
  readonly title?: string;
  readonly inputs?: Readonly<Record<string, string>>;
  readonly harness?: string;
  readonly model?: string;
  readonly createdAt: string;
  readonly status: { readonly _tag: string; readonly detail?: string; readonly reason?: string; readonly since?: string };
  readonly notes: readonly string[];
  readonly lastEvent?: TriggerEvent;
  readonly webhook?: { readonly path: string; readonly secretHeader: string; readonly deliveryHeader: string };
  /** a Webhook rule's secret: in the answer that created it (or made a new one), never again */
  readonly secret?: string;
}

export const describeSource = (s: TriggerSource): string => {
  switch (s._tag) {
    case 'Schedule': return `Schedule: ${s.cron} (${s.timeZone})`;
    case 'CodeHost': return `Code host: ${s.repository}${s.label ? `, issues labeled ${s.label}` : ''}${s.command ? `, pull request comments starting ${s.command}` : ''}`;
    case 'Webhook': return 'Webhook';
    case 'Files': return `Files: ${s.glob} in ${s.folder}`;
  }
};

export const describeStatus = (st: TriggerRule['status']): string =>
  st._tag === 'Failing' ? `Failing: ${st.reason ?? ''}` : st.detail ? `${st._tag}: ${st.detail}` : st._tag;

export const describeOutcome = (o: TriggerEvent['outcome']): string =>
  !o ? '' : o._tag === 'Started' ? `Started${o.standing ? ` (${o.standing})` : ''}` : o.reason ? `${o._tag}: ${o.reason}` : o._tag;

/** the curl line that delivers to a webhook rule (docs/triggers.md) */
export const webhookLine = (origin: string, rule: TriggerRule, secret: string): string =>
  `curl -s ${origin}${rule.webhook?.path ?? `/api/triggers/${rule.id}/events`} -H "${rule.webhook?.secretHeader ?? 'svc-trigger-secret'}: ${secret}" -H 'content-type: application/json' -d '{"summary": "what happened"}'`;
