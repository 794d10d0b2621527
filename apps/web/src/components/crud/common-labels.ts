import { fieldLabels } from '@mostrador/contract';

/**
 * Spanish labels of field names many resources share, so a screen config only labels
 * what is its own: the contract's field labels (the ones errors name fields by), with the
 * wording forms prefer where it differs. A config's label wins; an unknown name is shown
 * spaced out.
 */
export const commonLabels: Readonly<Record<string, string>> = {
  ...fieldLabels,
  name: 'Nombre',
  nombre: 'Nombre',
  title: 'Título',
  description: 'Descripción',
  descripcion: 'Descripción',
  email: 'Correo electrónico',
  phone: 'Teléfono',
  telefono: 'Teléfono',
  numero: 'Número',
  address: 'Dirección',
  city: 'Ciudad',
  country: 'País',
  slug: 'Slug',
  status: 'Estado',
  active: 'Activo',
  isDefault: 'Predeterminado',
  platform: 'Plataforma',
  url: 'URL',
  imageUrl: 'URL de la imagen',
  logoUrl: 'URL del logo',
  price: 'Precio',
  stock: 'Stock',
  sku: 'SKU',
  hex: 'Color',
  color: 'Color',
  tags: 'Etiquetas',
  notes: 'Notas',
  message: 'Mensaje',
  content: 'Contenido',
  language: 'Idioma',
  apiKey: 'API key',
  first_name: 'Nombres',
  last_name: 'Apellidos',
  role: 'Rol',
  disabled: 'Deshabilitado',
  password: 'Contraseña',
  createdAt: 'Creado',
  updatedAt: 'Actualizado',
};

/** `foreignLabelId` → 'Foreign label id', `first_name` → 'First name'. */
export function humanize(field: string): string {
  const words = field.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function labelOf(field: string, configured?: string): string {
  return configured ?? commonLabels[field] ?? humanize(field);
}
