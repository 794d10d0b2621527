import { expect } from 'vitest';
import type { WebhookProcessor } from '../src/modules/webhooks/process.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

export const TEST_TOKEN = 'EAAGm0PX4ZCpsBAJ9ejemplotokendeprueba7Q2x';

export interface ChannelSuite {
  t: TestApp;
  admin: Signed;
  agent: Signed;
  acme: Signed;
  peru: string;
  chile: string;
  acmeCo: string;
  /** The app's processor: processes stored events here and now (the queue may be processing them too: each is done once). */
  processor: WebhookProcessor;
}

type Company = 'peru' | 'chile' | 'acmeCo';
/** A channel a suite configures: who, in which company, the settings call and its body. */
export interface ChannelSetting {
  company: Company;
  url: '/api/channels/whatsapp' | '/api/channels/meta';
  payload: object;
}

/**
 * The product with the demo tenant, its three users signed in and the channels a webhook suite
 * needs (Demo Perú and Demo Chile by the demo admin, Acme by its admin).
 */
export async function startChannelSuite(channels: ChannelSetting[], env: Record<string, string> = {}): Promise<ChannelSuite> {
  const t = await startTestApp(env);
  const [admin, agent, acme] = await Promise.all([login(t, demo.admin), login(t, demo.agent), login(t, demo.acme)]);
  const suite: ChannelSuite = {
    t,
    admin,
    agent,
    acme,
    peru: admin.company('Demo Perú'),
    chile: admin.company('Demo Chile'),
    acmeCo: acme.company('Acme'),
    // the app's one processor (app.ts), as the queue runs it
    processor: t.app.webhookProcessor,
  };
  for (const c of channels) {
    const who = c.company === 'acmeCo' ? acme : admin;
    const res = await t.app.inject({ method: 'PUT', url: c.url, headers: as(who, suite[c.company]), payload: c.payload });
    expect(res.statusCode, res.body).toBe(200);
  }
  return suite;
}
