package io.ordo.redis;

import io.ordo.domain.InvalidInputException;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;

/**
 * TLS material both clients build from {@link RedisOptions#trustedCertificates()}: trust exactly the
 * certificates of a PEM file (a private CA), with the JDK's own classes so both clients agree.
 */
public final class RedisTls {
    private RedisTls() {
    }

    /** Trust managers that accept the certificates in the PEM file and chains signed by them. */
    public static TrustManagerFactory trustManagers(Path pemFile) {
        try (InputStream in = Files.newInputStream(pemFile)) {
            Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509")
                    .generateCertificates(in);
            if (certificates.isEmpty()) {
                throw new InvalidInputException("trustedCertificates", "holds no PEM certificate: " + pemFile);
            }
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate certificate : certificates) {
                store.setCertificateEntry("trusted-" + i++, certificate);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return factory;
        } catch (IOException | GeneralSecurityException e) {
            throw new InvalidInputException("trustedCertificates", "cannot be read as PEM certificates: "
                    + pemFile + " (" + e.getMessage() + ")", e);
        }
    }

    /** A TLS context that trusts the certificates in the PEM file. */
    public static SSLContext sslContext(Path pemFile) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trustManagers(pemFile).getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK offers no TLS context", e);
        }
    }

    /** Parameters that make the handshake check the server's name (or IP) against its certificate. */
    public static SSLParameters verifyingHostName() {
        SSLParameters parameters = new SSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        return parameters;
    }
}
