import { describe, expect, it } from 'vitest';
import { PermissionBroker } from '../../../src/background/gate/permission-broker';

describe('PermissionBroker', () => {
  it('hands the user’s decision to the waiting step, once', async () => {
    const broker = new PermissionBroker();
    const decision = broker.wait('s1', new AbortController().signal);
    expect(broker.isWaiting('s1')).toBe(true);
    broker.respond('s1', 'allow-site');
    await expect(decision).resolves.toBe('allow-site');
    expect(() => broker.respond('s1', 'deny')).toThrow(/no longer waiting/);
  });

  it('treats a stop as deny-all, also when the task was stopped before asking', async () => {
    const broker = new PermissionBroker();
    const controller = new AbortController();
    const decision = broker.wait('s2', controller.signal);
    controller.abort();
    await expect(decision).resolves.toBe('deny-all');
    expect(broker.isWaiting('s2')).toBe(false);
    await expect(broker.wait('s3', controller.signal)).resolves.toBe('deny-all');
  });

  it('refuses answers for steps that never asked', () => {
    expect(() => new PermissionBroker().respond('nope', 'allow-once')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it('accepts a decision only from the principal that owns the task', async () => {
    const broker = new PermissionBroker();
    const decision = broker.wait('s4', new AbortController().signal, 'client-a');
    expect(() => broker.respond('s4', 'allow-once', 'client-b')).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED' }));
    expect(() => broker.respond('s4', 'allow-once')).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED' }));
    expect(broker.isWaiting('s4')).toBe(true);
    broker.respond('s4', 'deny', 'client-a');
    await expect(decision).resolves.toBe('deny');
  });
});
