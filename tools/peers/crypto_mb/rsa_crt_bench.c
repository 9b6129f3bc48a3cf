/* crypto_mb's raw RSA CRT operation, eight per call, as a benchmark peer for `redc speed
 * --batch 8` (see README.md here): `rsa_crt_bench BITS [SECONDS]` reads the 2-prime key
 * /tmp/kBITS.pem, checks one call's eight results against OpenSSL's BN_mod_exp, then prints
 * signatures per second (eight per call). Inputs and outputs are big-endian byte strings;
 * the key's numbers little-endian 64-bit words, as crypto_mb's API takes them. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <crypto_mb/rsa.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static BIGNUM* getbn(EVP_PKEY* k, const char* name){BIGNUM* b=NULL; if(!EVP_PKEY_get_bn_param(k,name,&b)){fprintf(stderr,"no %s\n",name);exit(1);} return b;}
int main(int argc, char** argv){
  int bits = atoi(argv[1]); double secs = argc>2? atof(argv[2]) : 2.0;
  char path[64]; snprintf(path,sizeof path,"/tmp/k%d.pem",bits);
  FILE* f=fopen(path,"r"); if(!f){perror(path);return 1;} EVP_PKEY* k=PEM_read_PrivateKey(f,NULL,NULL,NULL); fclose(f); if(!k){fprintf(stderr,"%s: not a private key\n",path);return 1;}
  BIGNUM *n=getbn(k,"n"), *d=getbn(k,"d"), *p=getbn(k,"rsa-factor1"), *q=getbn(k,"rsa-factor2"),
         *dp=getbn(k,"rsa-exponent1"), *dq=getbn(k,"rsa-exponent2"), *iq=getbn(k,"rsa-coefficient1");
  int nb=bits/8, hb=nb/2;
  static int64u P[8][64],Q[8][64],DP[8][64],DQ[8][64],IQ[8][64];
  static int8u in[8][512], out[8][512];
  const int64u *pp[8],*qp[8],*dpp[8],*dqp[8],*iqp[8]; const int8u* inp[8]; int8u* outp[8];
  BN_CTX* ctx=BN_CTX_new();
  for(int i=0;i<8;i++){
    BN_bn2lebinpad(p,(unsigned char*)P[i],hb); BN_bn2lebinpad(q,(unsigned char*)Q[i],hb);
    BN_bn2lebinpad(dp,(unsigned char*)DP[i],hb); BN_bn2lebinpad(dq,(unsigned char*)DQ[i],hb);
    BN_bn2lebinpad(iq,(unsigned char*)IQ[i],hb);
    BIGNUM* c=BN_new(); BN_rand_range(c,n); BN_bn2binpad(c,in[i],nb); BN_free(c);
    pp[i]=P[i];qp[i]=Q[i];dpp[i]=DP[i];dqp[i]=DQ[i];iqp[i]=IQ[i];inp[i]=in[i];outp[i]=out[i];
  }
  const mbx_RSA_Method* m = mbx_RSA_private_crt_Method(bits);
  int8u* buf = aligned_alloc(64, (mbx_RSA_Method_BufSize(m)+63)/64*64);
  mbx_status st = mbx_rsa_private_crt_mb8(inp,outp,pp,qp,dpp,dqp,iqp,bits,m,buf);
  // check lane 0..7 against BN_mod_exp
  int ok=1;
  for(int i=0;i<8;i++){ BIGNUM* c=BN_bin2bn(in[i],nb,NULL); BIGNUM* r=BN_new(); BN_mod_exp(r,c,d,n,ctx);
    unsigned char exp[512]; BN_bn2binpad(r,exp,nb); if(memcmp(exp,out[i],nb)) ok=0; BN_free(c); BN_free(r);}
  if(st!=0||!ok){fprintf(stderr,"crypto_mb: status %d, results %s\n",(int)st, ok?"correct":"WRONG");return 1;}
  long calls=0; double t0=now(), t;
  do { mbx_rsa_private_crt_mb8(inp,outp,pp,qp,dpp,dqp,iqp,bits,m,buf); calls++; t=now(); } while(t-t0<secs);
  printf("rsa %d crypto_mb raw crt x8: %.1f sign/s\n", bits, 8.0*calls/(t-t0));
  return 0;
}
