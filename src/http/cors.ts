import cors from 'cors';

/** CORS for every /api route: public, any origin, bearer tokens in a header (never cookies). */
export const apiCors = () =>
  cors({
    origin: '*',
    methods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization'],
    maxAge: 86_400,
    optionsSuccessStatus: 204,
  });
