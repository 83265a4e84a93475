import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createPeopleMirror } from './external-people-mirror.js';

const ada = {
  id: '0190a0a0-0000-7000-8000-000000000001',
  traits: { email: ' Ada@Example.com ', name: { first: 'Ada', last: 'Lovelace' } },
  emailVerified: true,
};

describe('people mirror of an external Kratos', () => {
  it('writes the person once per change, not on every request, unless forced', async () => {
    const mirrorPerson = vi.fn(async () => true);
    const onSynced = vi.fn(async () => undefined);
    const people = createPeopleMirror({ repository: { mirrorPerson }, logger: pino({ level: 'silent' }), onSynced });

    await people.sync(ada);
    await people.sync(ada);
    expect(mirrorPerson).toHaveBeenCalledTimes(1);
    expect(mirrorPerson).toHaveBeenCalledWith({ id: ada.id, name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(onSynced).toHaveBeenCalledWith({ ...ada, email: 'ada@example.com' });

    await people.sync({ ...ada, traits: { ...ada.traits, name: { first: 'Ada', last: 'King' } } });
    await people.sync(ada, { force: true });
    expect(mirrorPerson).toHaveBeenCalledTimes(3);
  });

  it('names a person without a name after the email', async () => {
    const mirrorPerson = vi.fn(async () => true);
    const people = createPeopleMirror({ repository: { mirrorPerson }, logger: pino({ level: 'silent' }) });
    await people.sync({ ...ada, traits: { email: 'grace@example.com' } });
    expect(mirrorPerson).toHaveBeenCalledWith({ id: ada.id, name: 'grace@example.com', email: 'grace@example.com' });
  });

  it('keeps the person without an email while another person holds it, and tries again next time', async () => {
    const taken = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
    const mirrorPerson = vi.fn(async (person: { email: string | null }) => {
      if (person.email !== null) throw taken;
      return true;
    });
    const warn = vi.fn();
    const people = createPeopleMirror({ repository: { mirrorPerson }, logger: { warn } });

    await people.sync(ada);
    expect(mirrorPerson).toHaveBeenLastCalledWith({ id: ada.id, name: 'Ada Lovelace', email: null });
    expect(warn).toHaveBeenCalledTimes(1);
    await people.sync(ada);
    expect(mirrorPerson).toHaveBeenCalledTimes(4);
  });

  it('passes any other database failure on', async () => {
    const people = createPeopleMirror({
      repository: {
        mirrorPerson: async () => {
          throw new Error('connection terminated');
        },
      },
      logger: pino({ level: 'silent' }),
    });
    await expect(people.sync(ada)).rejects.toThrow('connection terminated');
  });
});
