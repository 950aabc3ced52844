import { changeSetting, DEFAULT_RUN_CAP, type SettingsView } from './settings-api.js';
import { HARNESSES, num, Outcome, str } from './settings-parts.js';
import { FallbackHarnesses, PullRequestWatch } from './settings-runs.js';
import { useSave } from './use-save.js';

// Settings > General: run cap, watchdog, default harness, code host (address and token), pull
// request watch and fallback harnesses (settings-runs.tsx). Each
// form sends one change; the server checks ranges and URLs and its refusal is shown as it is.

const RunCap = ({ s, onChanged }: { readonly s: SettingsView; readonly onChanged: () => void }) => {
  const save = useSave(onChanged);
  const value = s.runCap._tag === 'Chosen' ? s.runCap.value : DEFAULT_RUN_CAP;
  return (
    <form aria-labelledby="set-cap-h" onSubmit={(e) => { e.preventDefault(); const v = num(e.currentTarget, 'cap'); void save.run(() => changeSetting({ _tag: 'RunCap', cap: { _tag: 'Chosen', value: v } }), `Run cap set to ${v}.`); }}>
      <h3 id="set-cap-h">Run cap</h3>
      <div class="inline-form">
        <label for="set-cap">Runs at work at once</label>
        <input id="set-cap" name="cap" type="number" min={1} max={64} step={1} required defaultValue={String(value)} key={value} aria-describedby="set-cap-hint" />
        <button type="submit" disabled={save.busy}>Save run cap</button>
        <button type="button" disabled={save.busy || s.runCap._tag === 'Default'} onClick={() => void save.run(() => changeSetting({ _tag: 'RunCap', cap: { _tag: 'Default' } }), 'Run cap back to the default.')}>Use the default</button>
      </div>
      <p id="set-cap-hint" class="muted about">1 to 64; {s.runCap._tag === 'Default' ? `now the default (${DEFAULT_RUN_CAP})` : `the default is ${DEFAULT_RUN_CAP}`}. More runs wait in the queue.</p>
      <Outcome error={save.error} done={save.done} />
    </form>
  );
};

const Watchdog = ({ s, onChanged }: { readonly s: SettingsView; readonly onChanged: () => void }) => {
  const save = useSave(onChanged);
  return (
    <form aria-labelledby="set-dog-h" onSubmit={(e) => { e.preventDefault(); const v = num(e.currentTarget, 'seconds'); void save.run(() => changeSetting({ _tag: 'WatchdogTimeout', seconds: v }), `Watchdog set to ${v} seconds.`); }}>
      <h3 id="set-dog-h">Watchdog</h3>
      <div class="inline-form">
        <label for="set-dog">Seconds an agent may print nothing before its turn is stopped</label>
        <input id="set-dog" name="seconds" type="number" min={10} max={86400} step={1} required defaultValue={String(s.watchdogSeconds)} key={s.watchdogSeconds} />
        <button type="submit" disabled={save.busy}>Save watchdog</button>
      </div>
      <Outcome error={save.error} done={save.done} />
    </form>
  );
};

const DefaultHarness = ({ s, onChanged }: { readonly s: SettingsView; readonly onChanged: () => void }) => {
  const save = useSave(onChanged);
  return (
    <form aria-labelledby="set-harness-h" onSubmit={(e) => { e.preventDefault(); const h = str(e.currentTarget, 'harness'); void save.run(() => changeSetting({ _tag: 'DefaultHarness', harness: h }), `Default harness set to ${h}.`); }}>
      <h3 id="set-harness-h">Default harness</h3>
      <div class="inline-form">
        <label for="set-harness">Harness of steps that choose none</label>
        {/* `selected` on the option: Preact gives a select no `defaultValue`, so the saved one would not show */}
        <select id="set-harness" name="harness" key={s.defaultHarness ?? ''}>
          {HARNESSES.map((h) => <option key={h} value={h} selected={h === (s.defaultHarness ?? 'claude')}>{h}{s.defaultHarness === null && h === 'claude' ? ' (shipped default)' : ''}</option>)}
        </select>
        <button type="submit" disabled={save.busy}>Save default harness</button>
      </div>
      <Outcome error={save.error} done={save.done} />
    </form>
  );
};

const CodeHost = ({ s, onChanged }: { readonly s: SettingsView; readonly onChanged: () => void }) => {
  const host = useSave(onChanged);
  const token = useSave(onChanged);
  return (
    <div aria-labelledby="set-host-h" role="group">
      <h3 id="set-host-h">Code host</h3>
      <form aria-label="Code host address" onSubmit={(e) => {
        e.preventDefault();
        const change = { _tag: 'CodeHost', graphqlUrl: str(e.currentTarget, 'graphqlUrl'), webHost: str(e.currentTarget, 'webHost') };
        void host.run(() => changeSetting(change), 'Code host saved.');
      }}>
        <div class="two">
          <div class="field"><label for="set-gql">GraphQL address</label><input id="set-gql" name="graphqlUrl" type="url" required defaultValue={s.codeHost.graphqlUrl} key={s.codeHost.graphqlUrl} /></div>
          <div class="field"><label for="set-web">Web host</label><input id="set-web" name="webHost" required defaultValue={s.codeHost.webHost} key={s.codeHost.webHost} /></div>
        </div>
        <button type="submit" disabled={host.busy}>Save code host</button>
        <Outcome error={host.error} done={host.done} />
      </form>
      <form aria-label="Code host token" onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const t = str(form, 'token');
        void token.run(() => changeSetting({ _tag: 'CodeHostToken', token: t }), 'Token saved.').then((ok) => { if (ok) form.reset(); });
      }}>
        <div class="inline-form">
          <label for="set-token">Token</label>
          <input id="set-token" name="token" type="password" autoComplete="off" required placeholder={s.codeHost.token ? '(set; type to replace)' : '(not set)'} aria-describedby="set-token-state" />
          <button type="submit" disabled={token.busy}>Save token</button>
          <button type="button" disabled={token.busy || !s.codeHost.token} onClick={() => void token.run(() => changeSetting({ _tag: 'CodeHostToken', token: '' }), 'Token cleared.')}>Clear token</button>
        </div>
        <p id="set-token-state" class="muted about">{s.codeHost.token ? 'A token is set. It is never shown again.' : 'No token is set: pull requests cannot be opened or read.'}</p>
        <Outcome error={token.error} done={token.done} />
      </form>
    </div>
  );
};

export const GeneralSettings = ({ s, onChanged }: { readonly s: SettingsView; readonly onChanged: () => void }) => (
  <>
    <RunCap s={s} onChanged={onChanged} />
    <Watchdog s={s} onChanged={onChanged} />
    <DefaultHarness s={s} onChanged={onChanged} />
    <CodeHost s={s} onChanged={onChanged} />
    <PullRequestWatch s={s} onChanged={onChanged} />
    <FallbackHarnesses s={s} onChanged={onChanged} />
  </>
);
