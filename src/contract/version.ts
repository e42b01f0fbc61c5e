/** Version of the contract implementation; the gateway reports it on /api/status. */
export const GATEWAY_VERSION = '0.1.0';
