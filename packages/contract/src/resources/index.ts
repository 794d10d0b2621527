import type { Resource } from '../define-resource.js';
import { agentes } from './agentes.js';
import { bots } from './bots.js';
import { brands } from './brands.js';
import { catalogs } from './catalogs.js';
import { categories } from './categories.js';
import { chatGroups } from './chat-groups.js';
import { chats } from './chats.js';
import { cleanLeads } from './clean-leads.js';
import { colors } from './colors.js';
import { commentRules } from './comment-rules.js';
import { commentsFacebook } from './comments-facebook.js';
import { commentsWithoutResponses } from './comments-without-responses.js';
import { contactos } from './contactos.js';
import { ecommerces } from './ecommerces.js';
import { ecommercesAttributes } from './ecommerces-attributes.js';
import { ecommercesCategories } from './ecommerces-categories.js';
import { ecommercesContacts } from './ecommerces-contacts.js';
import { ecommercesOrders } from './ecommerces-orders.js';
import { ecommercesTags } from './ecommerces-tags.js';
import { ecommercesVariations } from './ecommerces-variations.js';
import { equiposDeVentas } from './equipos-de-ventas.js';
import { facebookAudiences } from './facebook-audiences.js';
import { facebookLabels } from './facebook-labels.js';
import { gravityForms } from './gravity-forms.js';
import { groups } from './groups.js';
import { imaginaTemplateMessages } from './imagina-template-messages.js';
import { leads } from './leads.js';
import { leadStages } from './lead-stages.js';
import { llmTracker } from './llm-tracker.js';
import { locaciones } from './locaciones.js';
import { mailchimpContacts } from './mailchimp-contacts.js';
import { mailchimpTags } from './mailchimp-tags.js';
import { mailchimps } from './mailchimps.js';
import { marketingCampaigns } from './marketing-campaigns.js';
import { marketingSegments } from './marketing-segments.js';
import { marketplaceOrders } from './marketplace-orders.js';
import { marketplaceProducts } from './marketplace-products.js';
import { marketplaceSources } from './marketplace-sources.js';
import { marketplaceVariations } from './marketplace-variations.js';
import { massiveMessagesLogs } from './massive-messages-logs.js';
import { mostradorLabels } from './mostrador-labels.js';
import { orders } from './orders.js';
import { products } from './products.js';
import { respuestasRapidas } from './respuestas-rapidas.js';
import { retailRocketTags } from './retail-rocket-tags.js';
import { telefonos } from './telefonos.js';
import { telegramGroups } from './telegram-groups.js';
import { telegramRoutines } from './telegram-routines.js';
import { templateMessagesLogs } from './template-messages-logs.js';
import { vendors } from './vendors.js';
import { woocommerces } from './woocommerces.js';

export { vendorSourceLabels, vendorSources } from './vendors.js';
export { labelRefKeys } from './ecommerces-categories.js';
export { currencies, ecommerceOrderStatusLabels, ecommerceOrderStatuses, orderLine } from './ecommerces-orders.js';
export {
  connectedMarketplaceKinds,
  marketplaceKindOf,
  marketplaceKinds,
  marketplacePlatformLabels,
  marketplacePlatforms,
  sellerCenterUrls,
} from './marketplace-sources.js';
export { marketplaceListingStatusLabels, marketplaceListingStatuses, zMarketplaceSku } from './marketplace-products.js';
export { marketplaceSyncStatusLabels, marketplaceSyncStatuses } from './marketplace-variations.js';
export {
  marketplaceItemStatusOf,
  marketplaceOrderStatusLabels,
  marketplaceOrderStatusOf,
  marketplaceOrderStatuses,
} from './marketplace-orders.js';
export { orderCustomer, orderItem, orderShippment } from './orders.js';
export type { OrderItem } from './orders.js';
export { productVariant, zSku } from './products.js';
export type { ProductVariant } from './products.js';
export { LEAD_DETAILS_MAX, leadDetail, leadPlatforms, leadStatusLabels, leadStatuses } from './leads.js';
export { chatStatusLabels, chatStatuses } from './chats.js';
export { ecommerceProductStatusLabels, ecommerceProductStatuses, productAttribute } from './ecommerces.js';
export { campaignChannels } from './marketing-campaigns.js';
export { commentPlatforms } from './comments-without-responses.js';
export { commentRuleKindLabels, commentRuleKinds, type CommentRuleKind } from './comment-rules.js';
export {
  templateCategories,
  templateCategoryLabels,
  templateLanguageLabels,
  templateLanguages,
  templateStatusLabels,
  templateStatuses,
} from './imagina-template-messages.js';
export { templateDeliveryStatusLabels, templateDeliveryStatuses, templateLogSourceLabels, templateLogSources } from './template-messages-logs.js';
export { massiveLogRecipientQuery, massiveLogReportOut, type MassiveLogReport } from './massive-messages-logs.js';
export { type SegmentFilters, type SegmentFrequency, segmentFilters, segmentFrequencies, segmentFrequencyLabels } from './marketing-segments.js';
export { telegramMediaKindLabels, telegramMediaKinds, weekdayLabels, weekdays } from './telegram-routines.js';
export { botLanguageLabels, botLanguages, botPlatforms } from './bots.js';
export { mailchimpContactStatusLabels, mailchimpContactStatuses } from './mailchimp-contacts.js';
export { llmFeatureLabels, llmFeatures, llmOutcomeLabels, llmOutcomes } from './llm-tracker.js';
export type { VendorSource } from './vendors.js';
export type { Currency, EcommerceOrderStatus } from './ecommerces-orders.js';
export type { MarketplaceKind, MarketplacePlatform } from './marketplace-sources.js';
export type { MarketplaceListingStatus } from './marketplace-products.js';
export type { MarketplaceSyncStatus } from './marketplace-variations.js';
export type { MarketplaceOrderStatus } from './marketplace-orders.js';
export type { LeadPlatform, LeadStatus } from './leads.js';
export type { ChatStatus } from './chats.js';
export type { TemplateCategory, TemplateLanguage, TemplateStatus } from './imagina-template-messages.js';
export type { TemplateDeliveryStatus, TemplateLogSource } from './template-messages-logs.js';
export type { Weekday } from './telegram-routines.js';
export type { BotLanguage, BotPlatform } from './bots.js';
export type { MailchimpContactStatus } from './mailchimp-contacts.js';
export type { LlmFeature } from './llm-tracker.js';

/** Every standard resource, by API key (SPEC §7). The server and the web iterate this. */
export const resources = {
  brands,
  colors,
  locaciones,
  // organisation
  'equipos-de-ventas': equiposDeVentas,
  agentes,
  vendors,
  groups,
  // phones and integrations
  telefonos,
  woocommerces,
  bots,
  // catalogue
  categories,
  products,
  catalogs,
  orders,
  // e-commerce and marketplace
  ecommerces,
  'ecommerces-variations': ecommercesVariations,
  'ecommerces-categories': ecommercesCategories,
  'ecommerces-tags': ecommercesTags,
  'ecommerces-attributes': ecommercesAttributes,
  'ecommerces-orders': ecommercesOrders,
  'ecommerces-contacts': ecommercesContacts,
  'marketplace-sources': marketplaceSources,
  'marketplace-products': marketplaceProducts,
  'marketplace-variations': marketplaceVariations,
  'marketplace-orders': marketplaceOrders,
  // leads and labels
  leads,
  'lead-stages': leadStages,
  'clean-leads': cleanLeads,
  contactos,
  'mostrador-labels': mostradorLabels,
  'facebook-labels': facebookLabels,
  // chat and comments
  chats,
  chat_groups: chatGroups,
  'respuestas-rapidas': respuestasRapidas,
  'comment-rules': commentRules,
  'comments-facebook': commentsFacebook,
  'comments-without-responses': commentsWithoutResponses,
  // messaging
  imagina_template_messages: imaginaTemplateMessages,
  'template-messages-logs': templateMessagesLogs,
  'massive-messages-logs': massiveMessagesLogs,
  'telegram-groups': telegramGroups,
  'telegram-routines': telegramRoutines,
  // marketing
  'marketing-segments': marketingSegments,
  'marketing-campaigns': marketingCampaigns,
  'facebook-audiences': facebookAudiences,
  mailchimps,
  'mailchimp-tags': mailchimpTags,
  'mailchimp-contacts': mailchimpContacts,
  'retail-rocket-tags': retailRocketTags,
  'gravity-forms': gravityForms,
  // metrics
  'llm-tracker': llmTracker,
} satisfies Record<string, Resource>;
export type ResourceKey = keyof typeof resources;
export const resourceList: Resource[] = Object.values(resources);
