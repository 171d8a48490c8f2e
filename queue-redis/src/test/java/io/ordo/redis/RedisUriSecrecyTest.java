package io.ordo.redis;

import io.ordo.domain.InvalidInputException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** A malformed Redis URI is refused without its password anywhere in the exception: message, causes or stack text. */
class RedisUriSecrecyTest {
    private static final String PASSWORD_MARK = "Zq7Wx";

    @ParameterizedTest
    @ValueSource(strings = {
            "redis://app:Zq7Wx@h:1/db",
            "redis://app:Zq7Wx@h^:1",                // not a URI at all
            "redis://app:Zq7Wx}{@h:1",               // illegal characters in the user info
            "redis://app:Zq/7Wx@h:1",                // a '/' in the password ends the authority early
            "redis://app:Zq7@Wx@h:1/x",              // an unescaped '@' in the password
            "redis://app:Zq?7Wx@h:1",                // a '?' in the password is not the query
            "redis://app:Zq#7Wx@h:notaport",
            "redis://app:Zq%zz7Wx@h:1",              // a malformed %-escape in the password
            "redis://app:%Zq7Wx@h:1",
            "redis://app:Zq7Wx@h:1?wait=many",
            "redis://app:Zq7Wx@h:1?waitTimeout=%zz",
            "redis://app:Zq7Wx@h:1?nope=1",
            "redis://app:Zq7Wx@",
            "redis-cluster://app:Zq7Wx@n1:7000/3",
            "redis-cluster://app:Zq/7Wx@n1:7000",
            "redis-cluster://app:Zq7Wx@n1,,n2",
            "redis-sentinel://app:Zq7Wx@s1",
            "redis-sentinel://app:Zq/7Wx@s1?master=m",
            "rediss-sentinel://app:Zq7Wx@s1?master=m",
            "http://app:Zq7Wx@h:1",
            "redis//app:Zq7Wx@h:1"})
    void a_malformed_uri_is_refused_without_its_password(String uri) {
        Throwable refusal = catchThrowable(() -> RedisEndpoint.parse(uri));

        assertThat(refusal).as(uri).isInstanceOf(InvalidInputException.class);
        StringWriter everything = new StringWriter();
        refusal.printStackTrace(new PrintWriter(everything));
        assertThat(everything.toString()).as(uri).doesNotContain(PASSWORD_MARK)
                .doesNotContain("Zq7").doesNotContain("7Wx");
    }
}
