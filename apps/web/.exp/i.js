import { z } from 'zod';
console.log(z.object({ a: z.string().min(1).pipe(z.email()) }));
