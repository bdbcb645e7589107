/**
 * The part of `smpp` (node-smpp 0.5, no published types) this server uses: sessions, servers,
 * PDUs and custom TLVs. Field names follow the SMPP specification.
 */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  export interface PduFields {
    command_status?: number;
    sequence_number?: number;
    [field: string]: unknown;
  }

  export class PDU {
    constructor(command: string, options?: PduFields);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    isResponse(): boolean;
    response(options?: PduFields): PDU;
  }

  export type PduCallback = (pdu: PDU) => void;

  export class Session extends EventEmitter {
    socket: Socket;
    send(pdu: PDU, responseCallback?: PduCallback, sendCallback?: PduCallback): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    bind_transceiver(options: PduFields, callback?: PduCallback): boolean;
    bind_transmitter(options: PduFields, callback?: PduCallback): boolean;
    submit_sm(options: PduFields, callback?: PduCallback): boolean;
    deliver_sm(options: PduFields, callback?: PduCallback): boolean;
    enquire_link(options?: PduFields | PduCallback, callback?: PduCallback): boolean;
    unbind(options?: PduFields | PduCallback, callback?: PduCallback): boolean;
  }

  export interface ConnectOptions {
    url?: string;
    host?: string;
    port?: number;
    auto_enquire_link_period?: number;
    connectTimeout?: number;
  }

  export function connect(options: ConnectOptions, listener?: () => void): Session;

  export class Server extends NetServer {
    sessions: Session[];
  }
  export function createServer(listener: (session: Session) => void): Server;

  export interface TlvType {
    read(buffer: Buffer, offset: number, length: number): unknown;
    write(value: unknown, buffer: Buffer, offset: number): void;
    size(value: unknown): number;
    default: unknown;
  }
  export const types: {
    tlv: Record<'int8' | 'int16' | 'int32' | 'cstring' | 'string' | 'buffer', TlvType>;
  };
  export function addTLV(name: string, options: { id: number; type: TlvType }): void;

  export const ESME_ROK: number;
  export const ESME_RSYSERR: number;
  export const ESME_RBINDFAIL: number;
  export const ESME_RINVDSTADR: number;
  export const ESME_RTHROTTLED: number;
  export const ESME_RMSGQFUL: number;
  export const ESME_RX_T_APPN: number;
}
