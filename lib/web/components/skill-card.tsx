import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorNote } from '../ui/page.js';
import { describeInstalled, installAction, installedText, type InstallResult, type Skill, type SkillHarness } from './skill-shapes.js';
import { useSave } from './use-save.js';

// One bundled skill: its version and description, and per harness whether it is installed in that
// CLI's skill folder, at which version, with Install or Update. A copy the user changed is only
// replaced after a confirmation (`force`: svc moves it to a backup first). After an install the
// skills are read again, so what is shown is what is on disk.

export const SkillCard = ({ skill, onInstalled }: { readonly skill: Skill; readonly onInstalled: () => Promise<void> }) => {
  const s = skill;
  const key = `sk-${s.name}`;
  const save = useSave();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const status = useRef<HTMLParagraphElement>(null);
  // opening the confirmation puts the keyboard on its safe answer, closing it back on the button
  const focusNext = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  const confirm = (harness: string | null) => {
    focusNext.current = harness ? `${key}-${harness}-keep` : confirming ? `${key}-${confirming}-act` : null;
    setConfirming(harness);
  };
  const act = (harness: string, force: boolean) => {
    setDone('');
    void save.run(async () => {
      const r = await api<InstallResult>('skills/install', { body: { skill: s.name, harness, ...(force ? { force } : {}) } });
      setConfirming(null);
      setDone(installedText(r));
      await onInstalled();
      // the button pressed is gone once the skill is up to date: keep the keyboard on what happened
      status.current?.focus();
    }, '');
  };
  // a function, not a component: the rows keep their elements (and focus) across renders
  const row = (h: SkillHarness) => {
    const action = installAction(h, s.version);
    const who = `${s.name} for ${h.harness}`;
    return (
      <li key={h.harness} data-harness={h.harness}>
        <div class="row">
          <strong class="grow">{h.harness}</strong>
          <span class={`badge${h.installed._tag === 'Changed' ? ' warning' : ''}`} data-state={h.supported ? h.installed._tag : 'Unsupported'}>{describeInstalled(h)}</span>
          {action && (
            <button type="button" disabled={save.busy} aria-label={`${action.label}: ${who}`} aria-expanded={action.force ? confirming === h.harness : undefined}
              id={`${key}-${h.harness}-act`}
              onClick={() => (action.force ? confirm(h.harness) : act(h.harness, false))}>{action.label}</button>
          )}
        </div>
        <code class="muted">{h.folder}</code>
        {h.installed._tag === 'Changed' && <p class="warning about">{h.installed.detail}</p>}
        {confirming === h.harness && (
          <div class="panel" role="group" aria-label={`Confirm replacing ${who}`}>
            <p>Replace your copy of {s.name} for {h.harness} with version {s.version}? Your copy is first moved to a backup folder in the svc home.</p>
            <div class="row">
              <button type="button" class="danger" disabled={save.busy} onClick={() => act(h.harness, true)}>Replace my copy</button>
              <button type="button" id={`${key}-${h.harness}-keep`} onClick={() => confirm(null)}>Keep mine</button>
            </div>
          </div>
        )}
      </li>
    );
  };

  return (
    <section class="panel" aria-labelledby={`${key}-h`} data-skill={s.name}>
      <div class="row">
        <h2 id={`${key}-h`} class="card-title grow">{s.name}</h2>
        <span class="muted">version {s.version}</span>
      </div>
      {s.description && <p class="muted about">{s.description}</p>}
      <ul class="plain" aria-label={`${s.name} by harness`}>
        {s.harnesses.map(row)}
      </ul>
      <ErrorNote error={save.error} />
      <p class="note" role="status" tabIndex={-1} ref={status}>{done}</p>
    </section>
  );
};
