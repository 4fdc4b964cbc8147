// The one configuration of the browser and system tests (@playwright/test): Debian's Chromium
// (no browser is downloaded), two projects that `scripts/test.sh` runs as two suites. The
// fixtures (the real server, the page-error check) are in e2e/support/test.mjs.
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './e2e/support/browser.mjs';

export default defineConfig({
  // A test starts real servers, and some build a site or wait out a server's timers.
  timeout: 120_000,
  // Waits are on what the page shows, so a slow machine only makes them longer, never wrong.
  expect: { timeout: 15_000 },
  forbidOnly: true,
  fullyParallel: false,
  // The two cores are the limit: four test files at a time were slower than two when the tests
  // ran on node:test (docs/figures.md, "Set-up").
  workers: 2,
  reporter: [['list'], ['json', { outputFile: '../test-output/playwright-report.json' }]],
  outputDir: '../test-output/playwright',
  use: {
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
  },
  projects: [
    // One more try for a browser test that failed: the suite's summary names each that passed
    // only then as FLAKY (scripts/test.sh), so it is seen and looked into, not lost with the run.
    { name: 'e2e', testDir: 'e2e', testIgnore: 'support/**', retries: 1 },
    { name: 'system', testDir: '../tests/system' },
    // Only for e2e/page-errors.test.mjs, which runs it in a child runner and reads its outcome.
    ...(process.env.PAGE_ERRORS_FIXTURE
      ? [
          {
            name: 'page-errors-fixture',
            testDir: 'e2e/support/fixtures',
            testMatch: '*.fixture.mjs',
          },
        ]
      : []),
  ],
});
