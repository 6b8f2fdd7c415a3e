/** The HTTPS listener: Fastify under NestJS, raw bodies (decoding is the pipeline's), one catch-all route. */
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppModule } from '../app.module.js';
import type { Config } from '../config/config.js';
import { Pipeline } from './pipeline.js';
import { jsonOutput, sendError, toApiError } from './respond.js';
import type { ServerOptions } from './server.module.js';
import type { ServingTls } from './tls.js';

export async function createServer(
  config: Config,
  databaseUrl: string,
  tls: ServingTls,
  server: ServerOptions,
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    https: { cert: tls.cert, key: tls.key, allowHTTP1: true },
    http2: false,
    bodyLimit: config.maxRequestBodyBytes,
    keepAliveTimeout: 65_000,
    return503OnClosing: false,
    routerOptions: { ignoreDuplicateSlashes: false, maxParamLength: 1024 },
    // errors Fastify finds before routing (an undecodable URL) leave as a Status too
    frameworkErrors: (error: Error, _req: unknown, reply: FastifyReply) =>
      sendError(
        reply,
        toApiError(error, (e) => console.error(e)),
        jsonOutput,
      ),
  } as never);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, databaseUrl, server),
    adapter,
    {
      logger: ['error', 'warn'],
      bodyParser: false,
    },
  );
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const pipeline = app.get(Pipeline);

  // bodies stay bytes: the pipeline decodes them by Content-Type (JSON, YAML, later Protobuf/CBOR)
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: config.maxRequestBodyBytes },
    (_req, body, done) => done(null, body),
  );
  fastify.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/*',
    handler: (req, reply) => pipeline.handle(req, reply),
    // errors before the pipeline runs (body too large, unreadable body) leave as a Status too
    errorHandler: (error, _req, reply) =>
      sendError(
        reply,
        toApiError(error, (e) => console.error(e)),
        jsonOutput,
      ),
  });
  return app;
}
