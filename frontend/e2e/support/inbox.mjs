// The inbox's password for the e2e tests, and its hash as `backend hash-password` printed it.
import { expect } from '@playwright/test';

export const ADMIN_PASSWORD = 'inbox-test-password-1';
export const ADMIN_PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$/BOc58QKv6BSgngjj2kfaQ$vf23gmdJyzg4h0K/ftw/Ob5zyCQnF3ZK37k2NeSSJ28';

/** Opens /admin at `origin` and signs in; resolves once the list is shown. */
export async function signIn(page, origin) {
  await page.goto(new URL('/admin', origin).href);
  await expect(page.getByRole('heading', { name: 'Sign in to the inbox' })).toBeVisible();
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Leads' })).toBeVisible();
}
