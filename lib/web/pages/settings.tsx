import { api } from '../api.js';
import { type ChangeRow, type McpView, type SettingsView } from '../components/settings-api.js';
import { GeneralSettings } from '../components/settings-general.js';
import { HarnessReadiness, RecentChanges } from '../components/settings-lists.js';
import { McpSettings } from '../components/settings-mcp.js';
import { BrowserNotifications, NotifyCommand, type NotifyFailure } from '../components/settings-notify.js';
import { Prices } from '../components/settings-prices.js';
import type { HarnessRow } from '../components/shapes.js';
import { ThemeSwitch } from '../components/theme-switch.js';
import { useLoad } from '../components/use-load.js';
import type { PageProps } from '../page-props.js';
import { ErrorNote, Loading, PageHeading } from '../ui/page.js';

// Settings: Appearance (this browser's theme), General, MCP, Prices, Notifications, recent changes with their source, harness readiness. After any change
// the settings and the recent changes are read again, so the page shows what the server stored.

const SECTIONS = [['set-appearance', 'Appearance'], ['set-general', 'General'], ['set-mcp', 'MCP'], ['set-prices', 'Prices'], ['set-notify', 'Notifications'], ['set-changes', 'Recent changes'], ['set-harnesses', 'Harnesses']] as const;

export const Page = (_: PageProps) => {
  const settings = useLoad(() => api<SettingsView>('settings'), []);
  const mcp = useLoad(() => api<McpView>('settings/mcp'), []);
  const changes = useLoad(() => api<{ changes: ChangeRow[] }>('settings/changes'), []);
  const notify = useLoad(() => api<{ lastFailure: NotifyFailure | null }>('settings/notify-command'), []);
  const harnesses = useLoad(() => api<{ harnesses: HarnessRow[] }>('harnesses'), []);
  const changed = () => { void settings.reload(); void mcp.reload(); void changes.reload(); void notify.reload(); };
  return (
    <section aria-labelledby="page-title">
      <PageHeading title="Settings" />
      <nav aria-label="Settings sections" class="tabs">
        {SECTIONS.map(([id, title]) => <a key={id} href={`#${id}`} class="button">{title}</a>)}
      </nav>
      <section id="set-appearance" class="panel" aria-labelledby="set-appearance-h">
        <h2 id="set-appearance-h" class="card-title">Appearance</h2>
        <ThemeSwitch />
      </section>
      <section id="set-general" class="panel" aria-labelledby="set-general-h">
        <h2 id="set-general-h" class="card-title">General</h2>
        <ErrorNote error={settings.error} />
        {settings.data ? <GeneralSettings s={settings.data} onChanged={changed} /> : !settings.error && <Loading what="settings" />}
      </section>
      <section id="set-mcp" class="panel" aria-labelledby="set-mcp-h">
        <h2 id="set-mcp-h" class="card-title">MCP</h2>
        <ErrorNote error={mcp.error} />
        {mcp.data ? <McpSettings mcp={mcp.data} onChanged={changed} onToken={(token) => { mcp.set({ ...mcp.data!, token }); void changes.reload(); }} /> : !mcp.error && <Loading what="the MCP endpoint" />}
      </section>
      <section id="set-prices" class="panel" aria-labelledby="set-prices-h">
        <h2 id="set-prices-h" class="card-title">Prices</h2>
        {settings.data ? <Prices prices={settings.data.prices} onChanged={changed} /> : !settings.error && <Loading what="prices" />}
      </section>
      <section id="set-notify" class="panel" aria-labelledby="set-notify-h">
        <h2 id="set-notify-h" class="card-title">Notifications</h2>
        <BrowserNotifications />
        {settings.data && <NotifyCommand s={settings.data} lastFailure={notify.data?.lastFailure ?? null} onChanged={changed} />}
      </section>
      <section id="set-changes" class="panel" aria-labelledby="set-changes-h">
        <h2 id="set-changes-h" class="card-title">Recent changes</h2>
        <RecentChanges changes={changes} />
      </section>
      <section id="set-harnesses" class="panel" aria-labelledby="set-harnesses-h">
        <h2 id="set-harnesses-h" class="card-title">Harnesses</h2>
        <HarnessReadiness harnesses={harnesses} />
      </section>
    </section>
  );
};
