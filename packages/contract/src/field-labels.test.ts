import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contract from './index.js';
import { errorMessagesOf } from './error-messages.js';
import { fieldLabelOf, fieldLabels, fieldMessage } from './field-labels.js';
import { unwrapSchema } from './define-resource.js';

/** The request schemas (bodies, queries, path parameters) besides the resources' own. */
const requestSchemas = [
  'authQuery', 'byLabelsQuery', 'changePasswordForm', 'channelKindParams', 'chatInboxQuery', 'chatsByCleanLeadQuery',
  'companyInput', 'companySettings', 'contactLeadInput', 'contactLeadParams', 'duplicatesQuery', 'mergeInput', 'personParams', 'personPatch', 'personQuery', 'cursorParam', 'forgotInput',
  'frequencyChoiceInput', 'frequencyTokenParams', 'groupMembersInput', 'labelsMassiveInput', 'leadFilterQuery',
  'leadSummaryQuery', 'listQuery', 'loginInput', 'massiveMessageInput', 'metaChannelInput', 'odooValuesQuery',
  'recentChatsQuery', 'registerCorporationForm', 'registerCorporationInput', 'registerInput', 'resetInput',
  'sendMessageInput', 'sendToAudienceInput', 'threadByLeadQuery', 'threadQuery', 'updatePasswordInput', 'userPatch',
  'webhookDeadLetterParams', 'whatsappChannelInput',
  'bulkCsvQuery', 'bulkPreviewBody', 'bulkRunQuery', 'marketplaceCountryParams', 'marketplaceCrossoverQuery', 'marketplaceDocumentQuery',
  'marketplaceSyncRunsQuery', 'marketplaceVariationPatch',
  'chunkInput', 'chunkRef', 'campaignRef', 'recipientQuery', 'sendCheckInput', 'massSendInput', 'imaginaSingleInput', 'imaginaBulkInput', 'imaginaMassiveInput', 'metaAdAccountInput',
  'metricsFilter', 'teamMetricsQuery', 'teamSlaSettingsIn', 'audienceIdParams', 'gravityFormParams', 'gravityEntriesQuery', 'mailchimpReportQuery', 'mailchimpIdParams', 'attributionSettings', 'attributionQuery', 'attributionChatsQuery',
  'googlePhoneParams', 'googleCredentialsInput', 'googleLeadsQuery',
  'driveUploadQuery', 'driveListQuery', 'driveFilePatch', 'driveIdParams',
] as const;

function fieldNames(schema: z.ZodType, out = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (seen.has(schema)) return out;
  seen.add(schema);
  const def = unwrapSchema(schema).core._zod.def as Record<string, unknown> & { type: string };
  if (def.type === 'object') {
    for (const [key, inner] of Object.entries(def.shape as Record<string, z.ZodType>)) {
      out.add(key);
      fieldNames(inner, out, seen);
    }
  } else if (def.type === 'array') fieldNames(def.element as z.ZodType, out, seen);
  else if (def.type === 'union') for (const option of def.options as z.ZodType[]) fieldNames(option, out, seen);
  else if (def.type === 'intersection') {
    fieldNames(def.left as z.ZodType, out, seen);
    fieldNames(def.right as z.ZodType, out, seen);
  }
  return out;
}

describe('field labels: an error names the field in Spanish, never by its key', () => {
  it('has a label for every field of every resource and request schema', () => {
    const names = new Set<string>();
    for (const resource of Object.values(contract.resources)) {
      fieldNames(resource.input, names);
      fieldNames(resource.listQuery as unknown as z.ZodType, names);
      if (resource.deleteBody) fieldNames(resource.deleteBody, names);
    }
    for (const key of requestSchemas) fieldNames((contract as unknown as Record<string, z.ZodType>)[key], names);
    expect(names.size).toBeGreaterThan(150);
    const missing = [...names].filter((name) => !fieldLabels[name]);
    expect(missing).toEqual([]);
  });

  it('names nested fields by their labels and line numbers', () => {
    expect(fieldLabelOf('email')).toBe('Correo electrónico');
    expect(fieldLabelOf('items.0.price')).toBe('Líneas 1 › Precio');
    expect(fieldLabelOf('settings.timezone')).toBe('Configuración › Zona horaria');
    expect(fieldMessage('agenteId', 'No existe en esta compañía')).toBe('Agente: No existe en esta compañía');
    expect(fieldMessage('', 'Falta el cuerpo de la solicitud')).toBe('Falta el cuerpo de la solicitud');
  });

  it('lists each detail of an error body under its Spanish name, without repeating the main message', () => {
    const body = {
      errors: {
        code: 'VALIDATION',
        msg: 'Correo electrónico: Este campo debe ser un email válido',
        details: [
          { path: 'email', msg: 'Este campo debe ser un email válido' },
          { path: 'telefono', msg: 'Número de teléfono no válido' },
        ],
      },
    };
    const lines = errorMessagesOf(body);
    expect(lines).toEqual(['Correo electrónico: Este campo debe ser un email válido', 'Teléfono: Número de teléfono no válido']);
    expect(lines.join('\n')).not.toMatch(/\b(email|telefono):/);
  });
});
