import type { CountryCode } from '@mostrador/contract';
import Box from '@mui/material/Box';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../lib/api-client';
import { currentMembership, useSession } from '../../lib/session';
import { labelOf } from './common-labels';
import { type FieldSpec, fieldSpecsOf } from './field-model';
import { usePermissions } from '../../lib/permissions';
import { FieldInput } from './field-input';
import { bodyOf, changesOf, type FormMode, type FormValue, type FormValues, valuesOf } from './form-values';
import type { FieldConfig, ResourceRecord, ScreenConfig } from './types';
import { useSaveRecord } from './use-resource';
import { type FieldErrors, serverFieldErrors, validateBody } from './validation';

/** The fields a screen's form shows, in its order, for create or edit. */
export function formSpecsOf(config: ScreenConfig, mode: FormMode): FieldSpec[] {
  const { resource } = config;
  // the create body's fields: a required reference (requiredRefs) is required here though stored nullable
  const createFields = (resource.input as unknown as { shape?: typeof resource.fields }).shape ?? resource.fields;
  const all = fieldSpecsOf(createFields, { refs: resource.refs, writeOnly: resource.writeOnly });
  const order = (config.form as readonly string[] | undefined) ?? all.map((s) => s.name);
  const byName = new Map(all.map((s) => [s.name, s]));
  return order
    .map((name) => byName.get(name))
    .filter((spec): spec is FieldSpec => !!spec)
    .filter((spec) => {
      const only = (config.fields as Record<string, { only?: FormMode }> | undefined)?.[spec.name]?.only;
      return !only || only === mode;
    });
}

/** The current company's country: phones typed without a dialling code get its code. */
function useCompanyCountry(): CountryCode | undefined {
  const session = useSession();
  return currentMembership(session)?.company.country;
}

export interface ResourceFormState {
  mode: FormMode;
  specs: FieldSpec[];
  values: FormValues;
  errors: FieldErrors;
  pending: boolean;
  setValue: (field: string, value: FormValue) => void;
  submit: (event?: FormEvent) => Promise<void>;
  formRef: React.RefObject<HTMLFormElement | null>;
  country: CountryCode | undefined;
}

export interface ResourceFormOptions {
  /**
   * Sends an edit's changes instead of PUT /{id} (a store product: PATCH /ecommerces/v2/{id},
   * which saves and pushes it); answers the record as saved.
   */
  saveEdit?: (id: string, changes: Record<string, unknown>) => Promise<ResourceRecord>;
}

/**
 * The state of a resource's form: values from the record (edit) or empty (create),
 * validated by the contract schema (`input` on create, `patch` on edit) before sending,
 * and a 400's field details shown under the fields.
 */
export function useResourceForm(
  config: ScreenConfig,
  record: ResourceRecord | undefined,
  onSaved: (record: ResourceRecord | undefined) => void,
  options: ResourceFormOptions = {},
): ResourceFormState {
  const mode: FormMode = record ? 'edit' : 'create';
  const { resource } = config;
  const specs = useMemo(() => formSpecsOf(config, mode), [config, mode]);
  const initial = useMemo(() => {
    const defaults = typeof config.defaults === 'function' ? config.defaults() : config.defaults;
    return valuesOf(specs, record ?? (defaults as Record<string, unknown> | undefined));
  }, [specs, record, config.defaults]);
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const submitted = useRef(false);
  const formRef = useRef<HTMLFormElement | null>(null);
  const save = useSaveRecord(resource);
  const [ownPending, setOwnPending] = useState(false);
  const country = useCompanyCountry();

  const check = (next: FormValues) => {
    const body = mode === 'create' ? bodyOf(specs, next, 'create') : changesOf(specs, next, initial);
    const schema = mode === 'create' ? resource.input : resource.patch;
    return { body, result: validateBody(schema, body, specs, next) };
  };

  const latest = useRef(values);
  const setValue = (field: string, value: FormValue) => {
    const next = { ...latest.current, [field]: value };
    latest.current = next;
    setValues(next);
    if (submitted.current) setErrors(check(next).result.errors);
  };

  /** Focuses the first field, in the order shown, that has a message. */
  const focusFirstError = (found: FieldErrors) => {
    const boxes = formRef.current?.querySelectorAll<HTMLElement>('[data-field]') ?? [];
    for (const box of boxes) {
      if (!box.dataset.field || !(box.dataset.field in found)) continue;
      const target = box.querySelector<HTMLElement>('input:not([type="hidden"]), textarea, [role="combobox"]');
      if (target) {
        target.focus();
        return;
      }
    }
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    submitted.current = true;
    const { body, result } = check(latest.current);
    setErrors(result.errors);
    if (!result.success) {
      focusFirstError(result.errors);
      return;
    }
    if (mode === 'edit' && Object.keys(body).length === 0) {
      onSaved(record);
      return;
    }
    try {
      let saved: ResourceRecord;
      if (record && options.saveEdit) {
        setOwnPending(true);
        saved = await options.saveEdit(record._id, result.data as Record<string, unknown>).finally(() => setOwnPending(false));
      } else saved = await save.mutateAsync({ id: record?._id, body: result.data });
      onSaved(saved);
    } catch (error) {
      // A 400's details (and a 409's: a repeated unique value) name the fields at fault.
      const found = error instanceof ApiError ? serverFieldErrors(error.body) : {};
      if (Object.keys(found).length > 0) {
        setErrors(found);
        focusFirstError(found);
      }
    }
  };

  return { mode, specs, values, errors, pending: save.isPending || ownPending, setValue, submit, formRef, country };
}

export interface ResourceFormFieldsProps {
  config: ScreenConfig;
  form: ResourceFormState;
  record?: ResourceRecord;
  id?: string;
}

/** The form element with one input per field; its submit buttons live with the caller (dialog or page). */
export function ResourceFormFields({ config, form, record, id }: ResourceFormFieldsProps) {
  const fieldConfigs = (config.fields ?? {}) as Record<string, FieldConfig | undefined>;
  const { role } = usePermissions();
  return (
    <Box
      component="form"
      id={id}
      ref={form.formRef}
      noValidate
      onSubmit={form.submit}
      aria-label={form.mode === 'create' ? config.newLabel : config.editLabel}
      sx={{ display: 'grid', gap: 2.5, pt: 1 }}
    >
      {form.specs.map((field) => {
        const fieldConfig = fieldConfigs[field.name];
        // an enum narrowed to what this caller may choose (the value already held stays shown)
        const allowed = fieldConfig?.optionsFor && field.options ? fieldConfig.optionsFor(role) : undefined;
        const spec = allowed
          ? { ...field, options: field.options?.filter((o) => allowed.includes(o) || o === form.values[field.name]) }
          : field;
        return (
          <Box key={spec.name} data-field={spec.name} sx={{ minWidth: 0 }}>
            {fieldConfig?.input ? (
              fieldConfig.input({
                value: form.values[spec.name] ?? '',
                onChange: (value) => form.setValue(spec.name, value),
                values: form.values,
                label: labelOf(spec.name, fieldConfig.label),
                required: spec.required,
                error: form.errors[spec.name],
                helperText: fieldConfig.helperText,
                name: spec.name,
              })
            ) : (
              <FieldInput
                spec={spec}
                config={fieldConfig}
                value={form.values[spec.name] ?? ''}
                onChange={(value) => form.setValue(spec.name, value)}
                errors={form.errors}
                path={spec.name}
                mode={form.mode}
                record={record}
                country={form.country}
              />
            )}
          </Box>
        );
      })}
      {config.formAside?.(bodyOf(form.specs, form.values, 'create'))}
      {/* Enter in a text field submits */}
      <button type="submit" hidden aria-hidden tabIndex={-1} />
    </Box>
  );
}
