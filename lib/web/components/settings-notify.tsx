import { useState } from 'preact/hooks';
import { ErrorNote } from '../ui/page.js';
import { NOTICE_KINDS, readPrefs, writePrefs, type NotifyPrefs } from '../needs-you/prefs.js';
import { changeSetting, type SettingsView } from './settings-api.js';
import { useSave } from './use-save.js';

// Settings > Notifications. Browser notifications belong to this browser (its permission, its
// localStorage): the permission is asked for only when the person turns them on here, never on
// page load. The notification command is the server's: an argv (one argument a line, never a
// shell string), the kinds it runs for, and its last failure.

const KIND_TEXT: Readonly<Record<string, string>> = { question: 'a question', gate: 'a gate', failed: 'a failure', paused: 'a pause by svc (budget, harness, cycle limit)', card: 'a supervisor card' };
const COMMAND_KINDS = ['question', 'gate', 'failed', 'paused', 'card'] as const;

const permissionText = (p: NotificationPermission | 'unsupported'): string =>
  p === 'granted' ? 'allowed' : p === 'denied' ? 'blocked in this browser (change it in the browser\'s site settings)' : p === 'unsupported' ? 'not supported by this browser' : 'not asked yet';

const currentPermission = (): NotificationPermission | 'unsupported' => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);

export const BrowserNotifications = () => {
  const [prefs, setPrefs] = useState<NotifyPrefs>(readPrefs);
  const [permission, setPermission] = useState(currentPermission);
  const change = (p: NotifyPrefs) => { writePrefs(p); setPrefs(p); };
  const turn = async (on: boolean) => {
    if (on && typeof Notification !== 'undefined' && Notification.permission === 'default') setPermission(await Notification.requestPermission());
    change({ ...prefs, enabled: on });
  };
  return (
    <fieldset>
      <legend>In this browser</legend>
      <label class="check"><input type="checkbox" checked={prefs.enabled} disabled={permission === 'unsupported'} onChange={(e) => void turn(e.currentTarget.checked)} /> Show a notification when a run needs me</label>
      <p class="muted about" role="status">Permission: {permissionText(permission)}.</p>
      {NOTICE_KINDS.map((k) => (
        <label key={k} class="check"><input type="checkbox" checked={prefs.kinds.includes(k)} disabled={!prefs.enabled}
          onChange={(e) => change({ ...prefs, kinds: e.currentTarget.checked ? [...prefs.kinds, k] : prefs.kinds.filter((x) => x !== k) })} /> for {KIND_TEXT[k]}</label>
      ))}
    </fieldset>
  );
};

export interface NotifyFailure { readonly kind: string; readonly runId: string | null; readonly detail: string }

export const NotifyCommand = ({ s, lastFailure, onChanged }: { readonly s: SettingsView; readonly lastFailure: NotifyFailure | null; readonly onChanged: () => void }) => {
  const save = useSave(onChanged);
  const current = s.notifyCommand;
  const [argv, setArgv] = useState((current?.argv ?? []).join('\n'));
  const [kinds, setKinds] = useState<readonly string[]>(current?.kinds ?? COMMAND_KINDS);
  const submit = () => {
    const list = argv.split('\n').map((a) => a.trim()).filter((a) => a !== '');
    void save.run(() => changeSetting({ _tag: 'NotifyCommand', argv: list, kinds }), list.length ? 'Notification command saved.' : 'Notification command off.');
  };
  return (
    <form aria-labelledby="set-notify-cmd-h" onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <h3 id="set-notify-cmd-h">Notification command</h3>
      <label for="set-notify-argv">Command, one argument a line (empty: off)</label>
      <textarea id="set-notify-argv" rows={3} value={argv} onInput={(e) => setArgv(e.currentTarget.value)} aria-describedby="set-notify-hint" placeholder={'/usr/bin/notify-send\nsvc'} />
      <p id="set-notify-hint" class="muted about">Run by the server, never through a shell, with the event as JSON on stdin and SVC_EVENT_KIND, SVC_RUN_ID, SVC_RUN_URL set; 10 seconds at most.</p>
      <fieldset>
        <legend>Run it for</legend>
        {COMMAND_KINDS.map((k) => (
          <label key={k} class="check"><input type="checkbox" checked={kinds.includes(k)} onChange={(e) => setKinds(e.currentTarget.checked ? [...kinds, k] : kinds.filter((x) => x !== k))} /> {KIND_TEXT[k]}</label>
        ))}
      </fieldset>
      <button type="submit" disabled={save.busy}>Save notification command</button>
      <ErrorNote error={save.error} />
      <p class="note" role="status">{save.done}</p>
      {lastFailure && <p class="error" data-notify-failure>Last failure ({KIND_TEXT[lastFailure.kind] ?? lastFailure.kind}{lastFailure.runId ? `, run ${lastFailure.runId}` : ''}): {lastFailure.detail}</p>}
    </form>
  );
};
