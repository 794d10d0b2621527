import type { Module, Operation, Role } from '@mostrador/contract';
import type { SvgIconComponent } from '@mui/icons-material';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { FieldWidget } from './field-model';
import type { FormValue, FormValues } from './form-values';

/**
 * What the generic list and form need to know about a resource. A contract declaration
 * (`resources.brands`) is one as it is; the special APIs (users, companies) describe
 * themselves with the same shape in their screen config.
 */
export interface ResourceDescriptor {
  /** API key (query keys, refs). */
  key: string;
  label: string;
  labelPlural: string;
  module: Module;
  fields: Readonly<Record<string, z.ZodType | z.core.$ZodType>>;
  operations: readonly Operation[];
  /** API path, without /api and without slashes around it. */
  path: string;
  /** Create body schema. */
  input: z.ZodType;
  /** Update body schema (partial). */
  patch: z.ZodType;
  defaultSort: { field: string; order: 'asc' | 'desc' };
  sortable: readonly string[];
  searchable: readonly string[];
  refs: Readonly<Record<string, readonly string[]>>;
  writeOnly: readonly string[];
  deleteBody?: z.ZodObject;
  /** Create posts here instead of `path` (users: `register`). */
  createPath?: string;
  /** The list is read from here instead of `path` (clean leads: `clean-leads/list_with_advance_filter`). */
  listPath?: string;
}

/** A record as lists and forms handle it. */
export type ResourceRecord = { _id: string } & Record<string, unknown>;

export interface FieldConfig {
  label?: string;
  /** Overrides the widget read from the schema (`textarea` for a long text, `color`…). */
  widget?: FieldWidget;
  /** Spanish labels of enum values (contract maps such as `campaignStatusLabels`). */
  options?: Readonly<Record<string, string>>;
  /** The enum values this caller may choose (the roles a supervisor may give: decision 0059); all when absent. */
  optionsFor?: (role: Role | undefined) => readonly string[];
  helperText?: string;
  placeholder?: string;
  /** Labels of the inner fields of an object or an array of objects. */
  fields?: Readonly<Record<string, FieldConfig>>;
  /** Only on create (a password) or only on edit. */
  only?: 'create' | 'edit';
  /** Ids of these resources' records, for a nested field the declaration's `refs` cannot name. */
  refs?: readonly string[];
  /**
   * An amount of money: shown with the company's currency and locale (S/ 7.50), or with the
   * currency a field of the same record names (`{ currencyField: 'currency' }`: an order in USD),
   * or in the currency of the country it names (`{ countryField: 'country' }`: a Chilean store).
   */
  money?: true | { currencyField: string } | { countryField: string };
  /**
   * The field's own input instead of its widget's (an Imagina body with buttons that insert
   * its variables, a select filled from another call), given the whole form's values.
   */
  input?: (props: CustomFieldProps) => ReactNode;
}

/** What a field's own input (`FieldConfig.input`) gets from the form. */
export interface CustomFieldProps {
  value: FormValue;
  onChange: (value: FormValue) => void;
  /** Every field of the form as it is now (a template select filtered by the chosen language). */
  values: FormValues;
  /** The field's Spanish label. */
  label: string;
  required: boolean;
  /** The field's message (the schema's or the server's), else its helper text. */
  error?: string;
  helperText?: string;
  /** The input's name (the field's dotted path). */
  name: string;
}

interface ColumnBase {
  label?: string;
  /** Hidden on phones (default: every column after the second). */
  hideOnMobile?: boolean;
}

/** A field's column, formatted by the field's widget unless `render` says otherwise. */
export interface FieldColumn<F extends string = string> extends ColumnBase {
  field: F | 'createdAt' | 'updatedAt';
  render?: (row: ResourceRecord) => ReactNode;
  /**
   * Edited in the cell (an enum or ref field): a select that saves at once with PUT {field},
   * when the role may update. A row that no longer matches the list's filters leaves it.
   */
  inline?: boolean;
}

/** A computed column (a user's full name): any name, its own cell; sortable when the API sorts by it. */
export interface ComputedColumn extends ColumnBase {
  field: string;
  label: string;
  render: (row: ResourceRecord) => ReactNode;
}

export type ColumnConfig<F extends string = string> = FieldColumn<F> | ComputedColumn;

export type Column<F extends string = string> = F | 'createdAt' | 'updatedAt' | ColumnConfig<F>;

/** Field filters a list sends besides paging and search (`{ status: 'sin-asignar' }`); empty values are not sent. */
export type ListFilters = Readonly<Record<string, string | undefined>>;

/** The small, per-screen part: Spanish texts, columns, form fields, and what the screen allows. */
export interface ScreenConfig<R extends ResourceDescriptor = ResourceDescriptor> {
  resource: R;
  title: string;
  subtitle: string;
  newLabel: string;
  editLabel: string;
  emptyMessage: string;
  noResultsMessage: string;
  columns: ReadonlyArray<Column<FieldOf<R>>>;
  /** Form fields in order (default: every field in declaration order). */
  form?: ReadonlyArray<FieldOf<R>>;
  /** Labels and widget overrides by field. */
  fields?: Partial<Record<FieldOf<R>, FieldConfig>>;
  /** `false` hides what the API would allow (variations: no create, no edit). */
  create?: false;
  edit?: false;
  delete?: false;
  /** Edit on a page of its own (`/usuarios/{id}`) instead of the dialog. */
  editPath?: (row: ResourceRecord) => string;
  /** An extra row action to a page of its own (group members). */
  detail?: { label: string; path: (row: ResourceRecord) => string; icon?: SvgIconComponent };
  /** The field naming a record in confirmations and ref choices (default name / nombre / title). */
  displayField?: FieldOf<R>;
  /** Values a create starts with (a function: read when the form opens). */
  defaults?: Partial<Record<FieldOf<R>, unknown>> | (() => Partial<Record<FieldOf<R>, unknown>>);
  /** Field filters every list call of the screen sends (a lead bucket: `{ status: 'sin-asignar' }`). */
  filters?: ListFilters;
  /** More content in the search row (exports), given what the list shows: its filters and search text as `filter`. */
  toolbar?: (query: ListFilters) => ReactNode;
  /** More row actions, before Edit and Delete (open the lead's chat). */
  rowActions?: (row: ResourceRecord) => ReactNode;
  /** Shown between the header and the list (a store sync's progress and its last runs). */
  panel?: () => ReactNode;
  /** Shown under the form's fields, given the body the form would send as it is edited (a segment's live count). */
  formAside?: (body: Record<string, unknown>) => ReactNode;
  /**
   * Rows can be chosen: a checkbox on each and one for the page; the choice is kept across
   * pages and searches, and `actions` act on it (sync the chosen products). `clear` empties it.
   */
  selection?: { actions: (selected: ResourceRecord[], clear: () => void) => ReactNode };
  /**
   * The screen's own view of its records instead of the table and its pages (categories as a
   * tree), under the same header, search row and forms.
   */
  view?: (context: ListViewContext) => ReactNode;
}

/** What a screen's own view (`ScreenConfig.view`) gets from the list page. */
export interface ListViewContext {
  /** The search text, as the list would send it (after the typing pause). */
  search: string;
  canCreate: boolean;
  canEdit: boolean;
  canDelete: boolean;
  /** Opens the create form with these values filled in (a subcategory: its parent and store). */
  create: (defaults?: Record<string, unknown>) => void;
  edit: (row: ResourceRecord) => void;
  /** Asks, then deletes (the generic confirmation and message). */
  remove: (row: ResourceRecord) => Promise<void>;
}

export type FieldOf<R extends ResourceDescriptor> = Extract<keyof R['fields'], string>;

/**
 * A config is checked against its resource's field names, then handed on as a plain
 * `ScreenConfig` (field-name types do not survive being listed beside other resources).
 */
export function defineScreen<R extends ResourceDescriptor>(config: ScreenConfig<R>): ScreenConfig {
  return config as unknown as ScreenConfig;
}
