import { describe, expect, it } from 'vitest';
import { screen as telegramRoutines } from '../../features/telegram/telegram-routines-screen';
import { formSpecsOf } from './resource-form';

describe('formSpecsOf', () => {
  // decision 0061: the group a routine posts to is required by the API, so the form says so
  it('marks a required reference (requiredRefs) required, though the record may lack it', () => {
    const group = formSpecsOf(telegramRoutines, 'create').find((s) => s.name === 'telegramGroupId');
    expect(group).toMatchObject({ required: true, widget: 'ref' });
    expect(formSpecsOf(telegramRoutines, 'create').find((s) => s.name === 'telegramGroupIds')?.required).toBe(false);
    expect(group?.schema.safeParse(undefined).error?.issues[0].message).toBe('Elige el grupo de Telegram en el que se publica la rutina');
  });
});
