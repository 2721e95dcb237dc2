// strongroom/testing's fake AWS in a process of its own for the server's login rows, so that the CPU it spends
// answering DescribeInstances and GetCallerIdentity is neither the load generator's nor the server's. It makes the
// operator's user and key, a client user and key, INSTANCES running instances and an ec2 document signed for each,
// prints all the bench needs as one JSON line, and runs until its parent ends it.
//   node bench/server/server-fake-aws.mjs INSTANCES
import { FakeAws, IdentityDocumentSigner } from 'strongroom/testing';

const ACCOUNT = '111122223333';
const AMI = 'ami-0abc1234';
const instances = Number(process.argv[2]);

const aws = await FakeAws.start();
const operator = aws.createUser({ accountId: ACCOUNT, userName: 'strongroom' });
const client = aws.createUser({ accountId: ACCOUNT, userName: 'bench-client' });
const signer = await IdentityDocumentSigner.create();
const documents = Array.from({ length: instances }, (_, n) => {
  const instance = aws.addInstance({
    accountId: ACCOUNT,
    region: 'eu-west-1',
    instanceId: `i-${n.toString(16).padStart(17, '0')}`,
    imageId: AMI,
  });
  return signer.sign(instance).pkcs7;
});
console.log(
  JSON.stringify({
    url: aws.url,
    ami: AMI,
    operatorKey: aws.createAccessKey(ACCOUNT, operator.userName),
    clientKey: aws.createAccessKey(ACCOUNT, client.userName),
    clientArn: client.arn,
    certificatePem: signer.certificatePem,
    documents,
  }),
);
process.once('SIGTERM', () => aws.stop().then(() => process.exit(0)));
