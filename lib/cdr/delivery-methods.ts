/** How a message was sent (seed §2.2 `delivery_method`). Shared by the method filter and the simulator. */
export const DELIVERY_METHODS = ['API', 'Dashboard', 'Campaign'] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];
