import { chromium, type Browser } from 'playwright-core';

// Debian's Chromium, driven by playwright-core (never a downloaded browser). The flags keep it
// off the network: this machine has none but loopback.
export const CHROMIUM = process.env['SVC_CHROMIUM'] ?? '/usr/bin/chromium';

export const launch = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
