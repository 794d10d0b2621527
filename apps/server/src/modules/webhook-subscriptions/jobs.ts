/** The minute's sweep of outbound webhooks' deliveries (decision 0073); the spine's fan-out wakes the deliverer in process at once. */
export const WEBHOOK_DELIVER_QUEUE = 'webhooks.deliver';
