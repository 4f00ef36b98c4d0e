import { Pod } from 'kubernetes-models/v1/Pod';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
try { new Pod({ metadata: { name: 'x' }, spec: { containers: [{ name: 'a', image: 'b', ports: [{ containerPort: 'abc' as unknown as number, protocol: 'XX' as 'TCP' }] }, {image:'y'} as never], restartPolicy: 'Foo' as never } }).validate(); } catch (e) { console.log(e, Object.keys(e as object), JSON.stringify((e as {errors?: unknown}).errors)); }
