import { chromium, type Browser } from 'playwright-core';
import { DEBIAN_CHROMIUM, findChromium, machineProbe } from '../run/chromium.js';

// Debian's Chromium, driven by playwright-core (never a downloaded browser). `npm test` hands over
// the one it found or installed in SVC_CHROMIUM; a test run straight with ava finds it the same way.
// The flags keep it off the network: this machine has none but loopback.
export const CHROMIUM = process.env['SVC_CHROMIUM'] || findChromium(machineProbe()) || DEBIAN_CHROMIUM;

export const launch = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
