import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/db/schema.ts', './src/db/resource-tables.ts', './src/db/join-tables.ts', './src/db/order-tables.ts', './src/db/ecommerce-tables.ts', './src/db/marketplace-tables.ts', './src/db/genial-tables.ts', './src/db/whatsapp-template-tables.ts', './src/db/telegram-tables.ts', './src/db/sending-tables.ts', './src/db/analysis-tables.ts', './src/db/meta-ads-tables.ts', './src/db/metrics-tables.ts', './src/db/llm-tables.ts', './src/db/google-people-tables.ts', './src/db/gravity-forms-tables.ts', './src/db/dialogflow-tables.ts', './src/db/drive-tables.ts', './src/db/spine-tables.ts', './src/db/api-key-tables.ts', './src/db/webhook-subscription-tables.ts', './src/db/audit-tables.ts', './src/db/automation-tables.ts', './src/db/payment-tables.ts', './src/db/meta-catalog-tables.ts', './src/db/lead-board-tables.ts', './src/db/csat-tables.ts', './src/db/team-metrics-tables.ts', './src/db/attribution-tables.ts', './src/db/conversions-tables.ts'],
  out: './src/db/migrations',
});
