import type { Module } from '@mostrador/contract';
import type { SvgIconComponent } from '@mui/icons-material';
import AccountTree from '@mui/icons-material/AccountTree';
import AltRoute from '@mui/icons-material/AltRoute';
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import AutoAwesome from '@mui/icons-material/AutoAwesome';
import AutoMode from '@mui/icons-material/AutoMode';
import Badge from '@mui/icons-material/Badge';
import BarChartIcon from '@mui/icons-material/BarChart';
import Bolt from '@mui/icons-material/Bolt';
import BookmarkBorder from '@mui/icons-material/BookmarkBorder';
import Campaign from '@mui/icons-material/Campaign';
import Business from '@mui/icons-material/Business';
import Category from '@mui/icons-material/Category';
import CommentsDisabled from '@mui/icons-material/CommentsDisabled';
import ContactMail from '@mui/icons-material/ContactMail';
import CloudQueue from '@mui/icons-material/CloudQueue';
import Contacts from '@mui/icons-material/Contacts';
import Diversity3 from '@mui/icons-material/Diversity3';
import DonutLarge from '@mui/icons-material/DonutLarge';
import DynamicForm from '@mui/icons-material/DynamicForm';
import EventRepeat from '@mui/icons-material/EventRepeat';
import Facebook from '@mui/icons-material/Facebook';
import Forum from '@mui/icons-material/Forum';
import ForwardToInbox from '@mui/icons-material/ForwardToInbox';
import Groups from '@mui/icons-material/Groups';
import History from '@mui/icons-material/History';
import Hub from '@mui/icons-material/Hub';
import Insights from '@mui/icons-material/Insights';
import Inventory2 from '@mui/icons-material/Inventory2';
import Label from '@mui/icons-material/Label';
import LocalOffer from '@mui/icons-material/LocalOffer';
import MarkEmailRead from '@mui/icons-material/MarkEmailRead';
import MenuBook from '@mui/icons-material/MenuBook';
import MonitorHeart from '@mui/icons-material/MonitorHeart';
import Palette from '@mui/icons-material/Palette';
import PeopleAlt from '@mui/icons-material/PeopleAlt';
import Person from '@mui/icons-material/Person';
import PhoneAndroid from '@mui/icons-material/PhoneAndroid';
import PriceChange from '@mui/icons-material/PriceChange';
import Psychology from '@mui/icons-material/Psychology';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import Payments from '@mui/icons-material/Payments';
import RecentActors from '@mui/icons-material/RecentActors';
import RocketLaunch from '@mui/icons-material/RocketLaunch';
import Sell from '@mui/icons-material/Sell';
import Send from '@mui/icons-material/Send';
import Schedule from '@mui/icons-material/Schedule';
import Settings from '@mui/icons-material/Settings';
import ShoppingCart from '@mui/icons-material/ShoppingCart';
import SmartToy from '@mui/icons-material/SmartToy';
import Store from '@mui/icons-material/Store';
import Storefront from '@mui/icons-material/Storefront';
import SupportAgent from '@mui/icons-material/SupportAgent';
import Telegram from '@mui/icons-material/Telegram';
import Textsms from '@mui/icons-material/Textsms';
import Tune from '@mui/icons-material/Tune';
import ViewColumn from '@mui/icons-material/ViewColumn';
import ViewKanban from '@mui/icons-material/ViewKanban';
import ViewModule from '@mui/icons-material/ViewModule';
import VpnKey from '@mui/icons-material/VpnKey';
import WebhookIcon from '@mui/icons-material/Webhook';
import WhatsApp from '@mui/icons-material/WhatsApp';
import type { ComponentType } from 'react';
import type { ScreenConfig } from '../components/crud/types';
import { leadBuckets } from '../features/leads/buckets';
import { t } from '../i18n';

/** The drawer's groups, in SPEC §2's order; labels are `nav.groups.<group>` in i18n/es.ts. */
export const navGroups = [
  'organization',
  'integrations',
  'catalog',
  'marketplaces',
  'ecommerce',
  'metrics',
  'leads',
  'facebook',
  'messaging',
  'system',
] as const;
export type NavGroup = (typeof navGroups)[number];

type PageModule = Promise<{ default: ComponentType }>;

interface EntryBase {
  /** The Spanish route (SPEC §2). */
  path: string;
  /** Other routes to the same screen (/facebook is /bots). */
  aliases?: readonly string[];
  group: NavGroup;
  /** Drawer label. */
  label: string;
  icon: SvgIconComponent;
  /** Hidden from the drawer when the role may not list this module. */
  module?: Module;
  /** Reachable without signing in (the diagnostics page). */
  public?: boolean;
  /** Sub-routes with pages of their own (`:id` is the record). */
  children?: ReadonlyArray<{ path: string; page: () => PageModule }>;
}

/** A standard screen: the generic list page driven by a screen config (`features/<feature>/<key>-screen.ts`). */
export interface ConfigEntry extends EntryBase {
  /** The API key it lists (checked against the contract's module in screens.test.ts). */
  resource: string;
  load: () => Promise<{ screen: ScreenConfig }>;
  /** `${path}/:id` edits a record on the generic detail page instead of a dialog. */
  detailPage?: boolean;
  /** A page of its own built on the generic list (filters, a detail sheet) instead of the bare list. */
  page?: () => PageModule;
}

/** A screen of its own (profile, settings). */
export interface PageEntry extends EntryBase {
  page: () => PageModule;
}

export type ScreenEntry = ConfigEntry | PageEntry;

export const isConfigEntry = (entry: ScreenEntry): entry is ConfigEntry => 'load' in entry;

/**
 * Every screen of the authenticated area, once: routes and drawer entries are generated
 * from this list, and every screen loads lazily. Adding a screen: its config file and one line.
 */
export const screens: ScreenEntry[] = [
  // Organización
  { path: '/usuarios', group: 'organization', label: 'Usuarios', icon: PeopleAlt, module: 'users', resource: 'users', load: () => import('../features/organization/users-screen'), detailPage: true },
  { path: '/usuarios/roles', group: 'organization', label: 'Roles y permisos', icon: AdminPanelSettings, module: 'roles', page: () => import('../features/roles/roles-page') },
  { path: '/grupos', group: 'organization', label: 'Grupos', icon: Groups, module: 'groups', resource: 'groups', load: () => import('../features/groups/groups-screen'), children: [{ path: ':id', page: () => import('../features/groups/group-members-page') }] },
  { path: '/companias', group: 'organization', label: 'Compañías', icon: Business, module: 'companies', resource: 'companies', load: () => import('../features/organization/companies-screen') },
  { path: '/equipo-de-ventas', group: 'organization', label: 'Equipo de ventas', icon: Diversity3, module: 'organization', resource: 'equipos-de-ventas', load: () => import('../features/organization/equipos-de-ventas-screen') },
  { path: '/locaciones', group: 'organization', label: 'Locaciones', icon: Store, module: 'organization', resource: 'locaciones', load: () => import('../features/organization/locaciones-screen') },
  { path: '/agentes', group: 'organization', label: 'Agentes', icon: SupportAgent, module: 'organization', resource: 'agentes', load: () => import('../features/agents/agentes-screen') },
  { path: '/vendedores', group: 'organization', label: 'Vendedores', icon: Badge, module: 'organization', resource: 'vendors', load: () => import('../features/organization/vendors-screen') },
  { path: '/perfil', group: 'organization', label: t('nav.profile'), icon: Person, page: () => import('../features/profile/profile-page') },
  { path: '/configuracion', group: 'organization', label: 'Configuración', icon: Settings, module: 'settings', page: () => import('../features/settings/settings-page') },
  { path: '/configuracion/horario', group: 'organization', label: 'Horario de atención', icon: Schedule, module: 'settings', page: () => import('../features/business-hours/business-hours-page') },
  { path: '/configuracion/api', group: 'organization', label: 'API e integradores', icon: VpnKey, module: 'api', page: () => import('../features/api-keys/api-keys-page') },
  { path: '/configuracion/webhooks', group: 'organization', label: 'Webhooks de salida', icon: WebhookIcon, module: 'api', page: () => import('../features/webhook-subscriptions/webhook-subscriptions-page') },
  { path: '/auditoria', group: 'organization', label: 'Auditoría', icon: History, module: 'audit', page: () => import('../features/audit-log/audit-log-page') },
  // Teléfonos e integraciones
  { path: '/gravity-forms', group: 'integrations', label: 'Gravity Forms', icon: DynamicForm, module: 'marketing', resource: 'gravity-forms', load: () => import('../features/gravity-forms/gravity-forms-screen') },
  {
    path: '/telefonos',
    group: 'integrations',
    label: 'Teléfonos',
    icon: PhoneAndroid,
    module: 'integrations',
    resource: 'telefonos',
    load: () => import('../features/contacts/telefonos-screen'),
    children: [
      { path: 'contactos/:id', page: () => import('../features/contacts/phone-contacts-page') },
      // the spec's route: the credentials leave the address at once (decision 0052)
      { path: 'googlepeople/:id/:clientId/:clientSecret', page: () => import('../features/contacts/google-connect-page') },
      { path: 'googlepeople/:id', page: () => import('../features/contacts/google-connect-page') },
    ],
  },
  { path: '/bots', aliases: ['/facebook', '/dialogflow'], group: 'integrations', label: 'Bots', icon: SmartToy, module: 'integrations', resource: 'bots', load: () => import('../features/dialogflow/bots-screen') },
  { path: '/telegram/grupos', group: 'integrations', label: 'Grupos de Telegram', icon: Telegram, module: 'messaging', resource: 'telegram-groups', load: () => import('../features/telegram/telegram-groups-screen') },
  { path: '/telegram/rutinas', group: 'integrations', label: 'Rutinas de Telegram', icon: EventRepeat, module: 'messaging', resource: 'telegram-routines', load: () => import('../features/telegram/telegram-routines-screen') },
  { path: '/mailchimp', group: 'integrations', label: 'Mailchimp', icon: MarkEmailRead, module: 'marketing', resource: 'mailchimps', load: () => import('../features/mailchimp/mailchimps-screen') },
  { path: '/mailchimp/contactos', group: 'integrations', label: 'Contactos de Mailchimp', icon: ContactMail, module: 'marketing', resource: 'mailchimp-contacts', load: () => import('../features/mailchimp/mailchimp-contacts-screen') },
  { path: '/mailchimp/etiquetas', group: 'integrations', label: 'Etiquetas de Mailchimp', icon: LocalOffer, module: 'marketing', resource: 'mailchimp-tags', load: () => import('../features/mailchimp/mailchimp-tags-screen') },
  { path: '/retail-rocket/etiquetas', group: 'integrations', label: 'Etiquetas RetailRocket', icon: RocketLaunch, module: 'marketing', resource: 'retail-rocket-tags', load: () => import('../features/retail-rocket/retail-rocket-tags-screen') },
  {
    path: '/whatsapp',
    group: 'integrations',
    label: 'WhatsApp',
    icon: WhatsApp,
    module: 'integrations',
    page: () => import('../features/channels/whatsapp-page'),
    // the provider events that failed (decision 0020)
    children: [{ path: 'fallidos', page: () => import('../features/webhooks/dead-letters-page') }],
  },
  { path: '/woocommerce', group: 'integrations', label: 'WooCommerce', icon: ShoppingCart, module: 'integrations', resource: 'woocommerces', load: () => import('../features/ecommerce/woocommerces-screen') },
  // Drive: the company's media library, with public addresses for the messages (decision 0056)
  { path: '/drive', group: 'integrations', label: 'Drive', icon: CloudQueue, module: 'messaging', page: () => import('../features/drive/drive-page') },
  // Genial: electronic invoices of the orders, settings per country (decision 0037)
  { path: '/genial', group: 'integrations', label: 'Genial', icon: ReceiptLong, module: 'integrations', page: () => import('../features/genial/genial-page') },
  // Mercado Pago: the company's credentials for the orders' payment links (decision 0083)
  { path: '/mercadopago', group: 'integrations', label: 'Mercado Pago', icon: Payments, module: 'integrations', page: () => import('../features/payments/mercadopago-page') },
  // Catálogo y órdenes
  { path: '/catalogs', group: 'catalog', label: 'Catálogos', icon: MenuBook, module: 'catalog', resource: 'catalogs', load: () => import('../features/catalogs/catalogs-screen') },
  { path: '/ordenes', group: 'catalog', label: 'Órdenes', icon: ReceiptLong, module: 'catalog', resource: 'orders', load: () => import('../features/orders/orders-screen'), page: () => import('../features/orders/orders-page') },
  { path: '/productos', group: 'catalog', label: 'Productos', icon: Inventory2, module: 'catalog', resource: 'products', load: () => import('../features/catalogs/products-screen') },
  { path: '/marcas', group: 'catalog', label: 'Marcas', icon: Sell, module: 'catalog', resource: 'brands', load: () => import('../features/catalogs/brands-screen') },
  { path: '/categorias', group: 'catalog', label: 'Categorías', icon: Category, module: 'catalog', resource: 'categories', load: () => import('../features/catalogs/categories-screen') },
  { path: '/colores', group: 'catalog', label: 'Colores', icon: Palette, module: 'catalog', resource: 'colors', load: () => import('../features/catalogs/colors-screen') },
  // Marketplaces
  { path: '/marketplaces/fuentes', group: 'marketplaces', label: 'Fuentes', icon: Hub, module: 'marketplace', resource: 'marketplace-sources', load: () => import('../features/marketplaces/marketplace-sources-screen'), page: () => import('../features/marketplaces/sources-page') },
  { path: '/marketplaces/productos', group: 'marketplaces', label: 'Productos', icon: Storefront, module: 'marketplace', resource: 'marketplace-products', load: () => import('../features/marketplaces/marketplace-products-screen') },
  { path: '/marketplaces/productos-variaciones', group: 'marketplaces', label: 'Variaciones', icon: ViewModule, module: 'marketplace', resource: 'marketplace-variations', load: () => import('../features/marketplaces/marketplace-variations-screen'), page: () => import('../features/marketplaces/variations-page') },
  { path: '/marketplaces/ordenes', group: 'marketplaces', label: 'Órdenes', icon: ReceiptLong, module: 'marketplace', resource: 'marketplace-orders', load: () => import('../features/marketplaces/marketplace-orders-screen'), page: () => import('../features/marketplaces/orders-page') },
  { path: '/marketplaces/lote', group: 'marketplaces', label: 'Actualización masiva', icon: PriceChange, module: 'marketplace', page: () => import('../features/marketplaces/bulk-page') },
  // E-commerce
  {
    path: '/ecommerce/productos',
    group: 'ecommerce',
    label: 'Productos',
    icon: Storefront,
    module: 'ecommerce',
    resource: 'ecommerces',
    load: () => import('../features/ecommerce/ecommerces-screen'),
    // a product's page: its fields, variations and the other stores side by side
    children: [{ path: ':id', page: () => import('../features/ecommerce/product-page') }],
  },
  { path: '/ecommerce/productos-variaciones', group: 'ecommerce', label: 'Variaciones', icon: ViewModule, module: 'ecommerce', resource: 'ecommerces-variations', load: () => import('../features/ecommerce/ecommerces-variations-screen') },
  { path: '/ecommerce/categorias', group: 'ecommerce', label: 'Categorías', icon: AccountTree, module: 'ecommerce', resource: 'ecommerces-categories', load: () => import('../features/ecommerce/ecommerces-categories-screen') },
  { path: '/ecommerce/etiquetas', group: 'ecommerce', label: 'Etiquetas', icon: Label, module: 'ecommerce', resource: 'ecommerces-tags', load: () => import('../features/ecommerce/ecommerces-tags-screen') },
  { path: '/ecommerce/atributos', group: 'ecommerce', label: 'Atributos', icon: Tune, module: 'ecommerce', resource: 'ecommerces-attributes', load: () => import('../features/ecommerce/ecommerces-attributes-screen') },
  { path: '/ecommerce/contactos', group: 'ecommerce', label: 'Contactos', icon: Contacts, module: 'ecommerce', resource: 'ecommerces-contacts', load: () => import('../features/ecommerce/ecommerces-contacts-screen') },
  { path: '/ecommerce/ordenes', group: 'ecommerce', label: 'Órdenes', icon: ReceiptLong, module: 'ecommerce', resource: 'ecommerces-orders', load: () => import('../features/ecommerce/ecommerces-orders-screen') },
  // Métricas y contactos
  { path: '/contactos', group: 'metrics', label: 'Contactos', icon: Contacts, module: 'leads', resource: 'contactos', load: () => import('../features/contacts/contactos-screen') },
  { path: '/metricas', group: 'metrics', label: 'Métricas', icon: BarChartIcon, module: 'metrics', page: () => import('../features/metrics/metrics-page') },
  { path: '/seguimiento-gpt', group: 'metrics', label: 'Seguimiento GPT', icon: Psychology, module: 'metrics', resource: 'llm-tracker', load: () => import('../features/llm/llm-tracker-screen'), page: () => import('../features/llm/llm-tracker-page') },
  // Leads: the summary, then one list per bucket (features/leads/buckets.ts); /lead/todos has its filter bar
  { path: '/resumen-leads', group: 'leads', label: 'Resumen de leads', icon: Insights, module: 'leads', page: () => import('../features/leads/lead-summary-page') },
  // the pipeline board and the company's own stages on it (decision 0099)
  { path: '/lead/tablero', group: 'leads', label: 'Tablero', icon: ViewKanban, module: 'leads', page: () => import('../features/leads/board/board-page') },
  { path: '/lead/etapas', group: 'leads', label: 'Etapas del tablero', icon: ViewColumn, module: 'leads', resource: 'lead-stages', load: () => import('../features/leads/lead-stages-screen') },
  ...leadBuckets.map(({ slug, path, label, icon }): ScreenEntry =>
    slug === 'todos'
      ? { path, group: 'leads', label, icon, module: 'leads', page: () => import('../features/leads/all-leads-page') }
      : { path, group: 'leads', label, icon, module: 'leads', resource: 'leads', load: async () => ({ screen: (await import('../features/leads/lead-screens')).bucketScreen(slug) }) },
  ),
  // Facebook y comentarios
  { path: '/etiquetas-facebook', group: 'facebook', label: 'Etiquetas de Facebook', icon: Facebook, module: 'leads', resource: 'facebook-labels', load: () => import('../features/facebook-labels/facebook-labels-screen') },
  { path: '/etiquetas-mostrador', group: 'facebook', label: 'Etiquetas Mostrador', icon: BookmarkBorder, module: 'leads', resource: 'mostrador-labels', load: () => import('../features/facebook-labels/mostrador-labels-screen') },
  { path: '/etiquetas-y-agentes', group: 'facebook', label: 'Etiquetas y agentes', icon: AltRoute, module: 'chats', resource: 'chat_groups', load: () => import('../features/agents/chat-groups-screen') },
  {
    path: '/comment-to-msn',
    aliases: ['/ads-messenger'],
    group: 'facebook',
    label: 'Comentarios a Messenger',
    icon: Forum,
    module: 'chats',
    resource: 'comment-rules',
    load: () => import('../features/facebook-comments/comment-rules-screen'),
    children: [{ path: ':id', page: () => import('../features/facebook-comments/rule-page') }],
  },
  { path: '/comentarios-sin-respuesta', group: 'facebook', label: 'Comentarios sin respuesta', icon: CommentsDisabled, module: 'chats', resource: 'comments-without-responses', load: () => import('../features/facebook-comments/comments-without-responses-screen') },
  { path: '/facebook-audiencias', group: 'facebook', label: 'Audiencias de Facebook', icon: RecentActors, module: 'marketing', resource: 'facebook-audiences', load: () => import('../features/audiences/facebook-audiences-screen') },
  // Mensajería y marketing
  { path: '/chat', group: 'messaging', label: 'Chat', icon: Forum, module: 'chats', page: () => import('../features/chat/chat-page') },
  { path: '/respuestas-rapidas', group: 'messaging', label: 'Respuestas rápidas', icon: Bolt, module: 'messaging', resource: 'respuestas-rapidas', load: () => import('../features/chat/respuestas-rapidas-screen') },
  // when an event happens, if its conditions hold, then its actions (issue 29)
  { path: '/automatizaciones', group: 'messaging', label: 'Automatizaciones', icon: AutoMode, module: 'automation', page: () => import('../features/automation/automation-page') },
  // WhatsApp templates of the line, submitted to and synced from Meta (decision 0038)
  { path: '/mensajes_de_plantilla', group: 'messaging', label: 'Mensajes de plantilla', icon: Textsms, module: 'messaging', page: () => import('../features/whatsapp-templates/templates-page') },
  { path: '/imagina_mensajes_de_plantilla', group: 'messaging', label: 'Plantillas Imagina', icon: AutoAwesome, module: 'messaging', resource: 'imagina_template_messages', load: () => import('../features/massive-messages/imagina-template-messages-screen') },
  {
    path: '/marketing/campaigns',
    group: 'messaging',
    label: 'Campañas',
    icon: Campaign,
    module: 'marketing',
    resource: 'marketing-campaigns',
    load: () => import('../features/campaigns/marketing-campaigns-screen'),
    // a campaign's page: its plan of chunks, live progress and each recipient (decision 0041)
    children: [{ path: ':id', page: () => import('../features/campaigns/campaign-page') }],
  },
  // a send to a segment or to labels, with its pre-send check (decision 0043)
  { path: '/marketing/massive-messages', group: 'messaging', label: 'Mensajes masivos', icon: Send, module: 'marketing', page: () => import('../features/massive-messages/massive-messages-page') },
  { path: '/marketing/segmentos', group: 'messaging', label: 'Segmentos', icon: DonutLarge, module: 'marketing', resource: 'marketing-segments', load: () => import('../features/segments/marketing-segments-screen') },
  { path: '/marketing/historial-plantillas', group: 'messaging', label: 'Historial de plantillas', icon: History, module: 'messaging', resource: 'template-messages-logs', load: () => import('../features/histories/template-messages-logs-screen'), page: () => import('../features/histories/template-history-page') },
  { path: '/marketing/historial_mensajes_masivos', group: 'messaging', label: 'Historial de mensajes masivos', icon: ForwardToInbox, module: 'messaging', resource: 'massive-messages-logs', load: () => import('../features/histories/massive-messages-logs-screen'), page: () => import('../features/histories/massive-history-page') },
  // Sistema
  { path: '/test', group: 'system', label: t('nav.diagnostics'), icon: MonitorHeart, public: true, page: () => import('../features/diagnostics/diagnostics-page') },
];
